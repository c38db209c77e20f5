// mailparser ships no types; tests use only simpleParser and these fields of its result.
declare module 'mailparser' {
  interface AddressObject {
    text: string;
  }
  interface ParsedMail {
    subject?: string;
    text?: string;
    html?: string | false;
    to?: AddressObject | AddressObject[];
    headers: Map<string, unknown>;
  }
  export function simpleParser(source: string | Buffer): Promise<ParsedMail>;
}
