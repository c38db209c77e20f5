/**
 * Typed reading of environment variables. Apps declare each variable once with a parser that says what
 * it accepts; a bad value becomes a ConfigError naming the variable, so start-up can stop with exit code 2.
 */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly accepts: string,
    readonly got: string,
  ) {
    super(`${variable}=${JSON.stringify(got)} is not valid: ${variable} accepts ${accepts}.`);
    this.name = 'ConfigError';
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

export interface VarSpec<T> {
  accepts: string;
  parse(raw: string): T | undefined;
}

/** Returns the parsed value, the default when unset or empty, or throws ConfigError. */
export function readVar<T>(env: Env, name: string, spec: VarSpec<T>, fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = spec.parse(raw.trim());
  if (value === undefined) throw new ConfigError(name, spec.accepts, raw);
  return value;
}

export const port: VarSpec<number> = {
  accepts: 'a TCP port number from 0 to 65535',
  parse: (raw) => {
    if (!/^\d+$/.test(raw)) return undefined;
    const n = Number(raw);
    return n <= 65535 ? n : undefined;
  },
};

export const host: VarSpec<string> = {
  accepts: 'an IP address or host name to listen on, such as 0.0.0.0, :: or 127.0.0.1',
  parse: (raw) => (/^[A-Za-z0-9.:%-]+$/.test(raw) ? raw : undefined),
};

export const anyText: VarSpec<string> = { accepts: 'any text', parse: (raw) => raw };

export function oneOf<const T extends string>(values: readonly T[]): VarSpec<T> {
  return {
    accepts: `one of ${values.join(', ')}`,
    parse: (raw) => values.find((v) => v === raw.toLowerCase()),
  };
}

export const boolean: VarSpec<boolean> = {
  accepts: 'true or false (also 1/0, yes/no, on/off)',
  parse: (raw) => {
    const v = raw.toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
    return undefined;
  },
};

export function positiveInt(what: string): VarSpec<number> {
  return {
    accepts: `a positive whole number (${what})`,
    parse: (raw) => (/^\d+$/.test(raw) && Number(raw) > 0 ? Number(raw) : undefined),
  };
}

export function url(protocols: readonly string[]): VarSpec<string> {
  return {
    accepts: `a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    parse: (raw) => {
      try {
        const u = new URL(raw);
        return protocols.includes(u.protocol) ? raw : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
