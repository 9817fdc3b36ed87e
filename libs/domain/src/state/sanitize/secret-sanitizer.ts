/**
 * Secret sanitizer: replaces credentials in free text with `[REDACTED]`. Compared with the
 * reference it redacts whole private-key blocks (not only the header line), passwords
 * without quotes, and metadata keys as well as values.
 */

/** Replacement text for every redacted match. */
export const REDACTED = "[REDACTED]";

/** A named redaction rule. */
export interface SecretPattern {
  /** Rule name. */
  readonly name: string;
  /** Global regular expression; each whole match is replaced. */
  readonly pattern: RegExp;
}

/**
 * The rules, applied in this order. Case-insensitive rules fold case by Unicode (the `u` flag),
 * as the reference's `(?i)` does, so `ſ` reads as `s` and the Kelvin sign as `k`.
 */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  // Whole PEM blocks first, so the key body never survives; an unterminated block is cut to the end.
  {
    name: "private_key_block",
    pattern:
      /-----BEGIN (?:RSA |DSA |EC |OPENSSH |ENCRYPTED )?PRIVATE KEY-----[\s\S]*?(?:-----END (?:RSA |DSA |EC |OPENSSH |ENCRYPTED )?PRIVATE KEY-----|$)/g,
  },
  { name: "aws_access_key", pattern: /(?:A3T[A-Z0-9]|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA)[A-Z0-9]{16}/g },
  { name: "aws_secret_key", pattern: /(?:aws)?[_-]?secret[_-]?(?:access)?[_-]?key\s*[=:]\s*["']?[a-zA-Z0-9/+=]{40}["']?/giu },
  { name: "gcp_api_key", pattern: /AIza[0-9A-Za-z_-]{35}/g },
  { name: "github_token", pattern: /(?:ghp|gho|ghu|ghs|ghr)_[a-zA-Z0-9]{36,}/g },
  { name: "github_pat", pattern: /github_pat_[a-zA-Z0-9]{22}_[a-zA-Z0-9]{59}/g },
  { name: "slack_token", pattern: /xox[baprs]-[0-9a-zA-Z-]{10,}/g },
  { name: "slack_webhook", pattern: /https:\/\/hooks\.slack\.com\/services\/T[0-9A-Z]+\/B[0-9A-Z]+\/[a-zA-Z0-9]+/g },
  { name: "stripe_key", pattern: /(?:sk|pk)_(?:live|test)_[0-9a-zA-Z]{24,}/g },
  { name: "api_key", pattern: /(?:api[_-]?key|apikey)\s*[=:]\s*["']?[a-zA-Z0-9_-]{20,}["']?/giu },
  // Quoted (also between mismatched quotes, as the reference reads them) or bare: a bare value,
  // or one whose quote is never closed, runs to the next whitespace, comma, semicolon or quote.
  { name: "password", pattern: /(?:password|passwd|pwd)\s*[=:]\s*(?:"[^"]*"|'[^']*'|["'][^"']*["']|["']?[^\s"',;&]+)/giu },
  { name: "database_url", pattern: /(?:postgres|postgresql|mysql|mongodb|redis):\/\/[^:\s]+:[^@\s]+@[^\s"']+/giu },
  { name: "jwt_secret", pattern: /(?:jwt[_-]?secret|signing[_-]?key)\s*[=:]\s*["']?[a-zA-Z0-9_-]{20,}["']?/giu },
  { name: "generic_secret", pattern: /(?:secret|token|credential)\s*[=:]\s*["']?[a-zA-Z0-9_-]{20,}["']?/giu },
  { name: "sendgrid_key", pattern: /SG\.[a-zA-Z0-9_-]{22}\.[a-zA-Z0-9_-]{43}/g },
  { name: "twilio_key", pattern: /SK[a-f0-9]{32}/g },
  { name: "npm_token", pattern: /npm_[a-zA-Z0-9]{36}/g },
  { name: "pypi_token", pattern: /pypi-AgEIcHlwaS5vcmc[a-zA-Z0-9_-]+/g },
  { name: "discord_token", pattern: /[MN][A-Za-z\d]{23,}\.[\w-]{6}\.[\w-]{27}/g },
  {
    name: "heroku_key",
    pattern: /heroku[_-]?(?:api)?[_-]?key\s*[=:]\s*["']?[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}["']?/giu,
  },
];

/** Redacts every secret in `text`. */
export function sanitizeSecrets(text: string): string {
  if (text === "") return text;
  let out = text;
  for (const { pattern } of SECRET_PATTERNS) out = out.replace(pattern, REDACTED);
  return out;
}

/** Redacts keys and values of a string map; keys that collide after redaction keep the last value in key order. */
export function sanitizeMetadata(metadata: Readonly<Record<string, string>>): Record<string, string> {
  // fromEntries defines own properties, so a key such as "__proto__" stays plain data.
  return Object.fromEntries(Object.entries(metadata).map(([k, v]) => [sanitizeSecrets(k), sanitizeSecrets(v)]));
}
