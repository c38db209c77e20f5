/** Where a JSON text goes wrong: the byte offset (0-based) and the line and column (1-based) people look for. */
export interface JsonProblem {
  message: string;
  offset: number;
  line: number;
  column: number;
}

class Stop extends Error {
  constructor(
    readonly at: number,
    readonly what: string,
  ) {
    super(what);
  }
}

// V8's JSON.parse messages stopped naming a position, so a small validator reports where the error is.
function scan(s: string): void {
  let i = 0;
  const ws = () => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i++;
  };
  const fail = (what: string): never => {
    throw new Stop(
      i,
      i >= s.length ? `unexpected end of input, ${what}` : `unexpected ${JSON.stringify(s[i])}, ${what}`,
    );
  };
  const str = () => {
    i++;
    while (i < s.length && s[i] !== '"') {
      const c = s.charCodeAt(i);
      if (c < 0x20) fail('control character in string');
      if (s[i] === '\\') {
        i++;
        if (s[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(s.slice(i + 1, i + 5))) fail('expected 4 hex digits after \\u');
          i += 4;
        } else if (!'"\\/bfnrt'.includes(s[i] ?? 'x')) fail('invalid escape');
      }
      i++;
    }
    if (i >= s.length) fail('unterminated string');
    i++;
  };
  const value = (): void => {
    ws();
    const c = s[i];
    if (c === '{') container('}', true);
    else if (c === '[') container(']', false);
    else if (c === '"') str();
    else literal();
  };
  const literal = (): void => {
    const m = /^(-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?|true|false|null)/.exec(s.slice(i, i + 400));
    if (!m) fail('expected a value');
    i += m![0].length;
  };
  const container = (close: string, obj: boolean): void => {
    i++;
    ws();
    if (s[i] === close) {
      i++;
      return;
    }
    for (;;) {
      if (obj) {
        ws();
        if (s[i] !== '"') fail('expected a string key');
        str();
        ws();
        if (s[i] !== ':') fail('expected ":"');
        i++;
      }
      value();
      ws();
      if (s[i] === ',') {
        i++;
        continue;
      }
      if (s[i] === close) {
        i++;
        return;
      }
      fail(`expected "," or "${close}"`);
    }
  };
  value();
  ws();
  if (i < s.length) fail('expected end of input');
}

export function checkJson(text: string): JsonProblem | undefined {
  try {
    scan(text);
    return undefined;
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
    const before = text.slice(0, err.at);
    const line = before.split('\n').length;
    const column = err.at - before.lastIndexOf('\n');
    return {
      message: `${err.what} at line ${line}, column ${column} (offset ${err.at})`,
      offset: err.at,
      line,
      column,
    };
  }
}
