import { RuntimeError } from "../errors.js";

/** One environment variable: its documentation, its parser and its default. */
export interface EnvVar<T> {
  /** One line for `--help` and the README. */
  readonly doc: string;
  /** Parses the raw value, throwing a message (not an error) that says what was expected. */
  readonly parse: (raw: string) => T;
  /** Used when the variable is unset or empty; a variable without a default is required. */
  readonly default?: T;
}

/** A set of variables keyed by their names. */
export type EnvSpec = Record<string, EnvVar<unknown>>;

/** The typed values of an EnvSpec. */
export type EnvValues<S extends EnvSpec> = { [K in keyof S]: S[K] extends EnvVar<infer T> ? T : never };

class ParseFailure {
  constructor(readonly expected: string) {}
}

const fail = (expected: string): never => {
  throw new ParseFailure(expected);
};

/** A variable holding any non-empty string. */
export function text(doc: string, fallback?: string): EnvVar<string> {
  return { doc, parse: (raw) => raw, ...(fallback === undefined ? {} : { default: fallback }) };
}

/** A variable holding an optional string: undefined when unset. */
export function optionalText(doc: string): EnvVar<string | undefined> {
  return { doc, parse: (raw) => raw, default: undefined };
}

/** A variable holding an integer in [min, max]. */
export function integer(doc: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): EnvVar<number> {
  return {
    doc,
    default: fallback,
    parse: (raw) => {
      const value = /^-?\d+$/.test(raw) ? Number(raw) : Number.NaN;
      return Number.isSafeInteger(value) && value >= min && value <= max ? value : fail(`an integer from ${min} to ${max}`);
    },
  };
}

/** A variable holding true/false (also 1/0, yes/no). */
export function flag(doc: string, fallback: boolean): EnvVar<boolean> {
  const values: Record<string, boolean> = { true: true, false: false, "1": true, "0": false, yes: true, no: false };
  return { doc, default: fallback, parse: (raw) => values[raw.toLowerCase()] ?? fail("true or false") };
}

/** A variable holding one of a closed set of words. */
export function oneOf<T extends string>(doc: string, choices: readonly T[], fallback: T): EnvVar<T> {
  return { doc, default: fallback, parse: (raw) => (choices.includes(raw as T) ? (raw as T) : fail(`one of ${choices.join(", ")}`)) };
}

/** A variable holding `host:port` (IPv6 hosts in brackets); port 0 picks a free port. */
export function hostPort(doc: string, fallback: string): EnvVar<string> {
  return {
    doc,
    default: fallback,
    parse: (raw) => {
      const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(raw);
      return match !== null && Number(match[2]) <= 65535 ? raw : fail("host:port, for example 127.0.0.1:50051");
    },
  };
}

/** What the path of a URL variable may be, and how to say so when it is not. */
interface UrlPath {
  /** Matches every accepted path ("" and "/" included only if the pattern allows them). */
  readonly pattern: RegExp;
  /** Ends the "expected" message, for example "and at most a database number as its path". */
  readonly expected: string;
}

/** A variable holding an absolute URL with a host, one of `schemes` (without the colon) and, given `path`, a path it matches. */
export function url(doc: string, fallback: string, schemes: readonly string[], path?: UrlPath): EnvVar<string> {
  const example = `a URL such as ${schemes[0]}://host:port`;
  return {
    doc,
    default: fallback,
    parse: (raw) => {
      const parsed = URL.canParse(raw) ? new URL(raw) : undefined;
      const valid = parsed !== undefined && schemes.includes(parsed.protocol.slice(0, -1)) && parsed.hostname !== "";
      if (!valid) return fail(example);
      return path === undefined || path.pattern.test(parsed.pathname) ? raw : fail(`${example}, ${path.expected}`);
    },
  };
}

// From a URL's `//` to the last `@` before the next URL: a password may itself hold `@`, `/` or
// spaces (the URL parser takes the last `@` as the end of the user info, and a malformed value is
// printed as written), so masking stops at no earlier character. Text after a URL holding an `@`
// is masked with it: too much hidden rather than part of a password shown.
const CREDENTIALS = /\/\/(?:(?![a-z][a-z0-9+.-]*:\/\/)[\s\S])*@/gi;

/** `raw` with the user and password of every URL in it masked, for logs and start-up messages. */
export const redactCredentials = (raw: string): string => raw.replace(CREDENTIALS, "//***@");

/** Reads and validates every variable of `spec` from `env`, naming the first bad one in the error. */
export function readEnv<S extends EnvSpec>(spec: S, env: NodeJS.ProcessEnv = process.env): EnvValues<S> {
  const values: Record<string, unknown> = {};
  for (const [name, variable] of Object.entries(spec)) {
    // Values are trimmed before parsing, so one holding only spaces is as good as unset.
    const raw = env[name]?.trim();
    if (raw === undefined || raw === "") {
      if (!("default" in variable)) throw new RuntimeError("CONFIG_INVALID", `${name} is required: ${variable.doc}`);
      values[name] = variable.default;
      continue;
    }
    try {
      values[name] = variable.parse(raw);
    } catch (error) {
      if (!(error instanceof ParseFailure)) throw error;
      throw new RuntimeError(
        "CONFIG_INVALID",
        `${name}=${JSON.stringify(redactCredentials(env[name] ?? ""))} is invalid: expected ${error.expected}`,
      );
    }
  }
  return values as EnvValues<S>;
}
