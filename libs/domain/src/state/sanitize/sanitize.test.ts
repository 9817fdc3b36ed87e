import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { REDACTED, sanitizeMetadata, sanitizeSecrets } from "./secret-sanitizer.js";

describe("secret sanitizer", () => {
  it("redacts a whole private key block, body included", () => {
    const text = "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAsecretbody\n-----END RSA PRIVATE KEY-----\nafter";
    assert.equal(sanitizeSecrets(text), `key:\n${REDACTED}\nafter`, "block replaced");
    assert.equal(sanitizeSecrets("-----BEGIN PRIVATE KEY-----\nabc"), REDACTED, "unterminated block cut to the end");
  });

  it("redacts passwords with or without quotes", () => {
    assert.equal(sanitizeSecrets("password=hunter2 next"), `${REDACTED} next`, "bare");
    assert.equal(sanitizeSecrets('PWD: "a b c d e"'), REDACTED, "quoted with spaces");
    assert.equal(sanitizeSecrets("passwd='x'; ok"), `${REDACTED}; ok`, "single quotes");
  });

  it("redacts a quoted password shorter than eight characters, which the reference leaves in the text", () => {
    assert.equal(sanitizeSecrets("pwd='short' then"), `${REDACTED} then`, "short quoted password");
    assert.equal(sanitizeSecrets('password: ""'), REDACTED, "even an empty quoted one");
  });

  it("a password between mismatched quotes, which the reference redacts, is not left in the text", () => {
    assert.equal(sanitizeSecrets(`password="abcdefgh' next`), `${REDACTED} next`, "double then single quote");
    assert.equal(sanitizeSecrets(`pwd='secret 123" next`), `${REDACTED} next`, "single then double quote, a space inside");
    assert.equal(sanitizeSecrets(`passwd="never-closed`), REDACTED, "a quote never closed");
  });

  it("a key name spelled with a character that folds to its letter, as the reference's case-insensitive rules read it, is still redacted", () => {
    assert.equal(sanitizeSecrets(`api_\u212Aey=${"a".repeat(24)}`), REDACTED, "the Kelvin sign folds to k");
    assert.equal(sanitizeSecrets(`\u017Fecret: "${"b".repeat(24)}"`), REDACTED, "the long s folds to s");
  });

  it("redacts the reference's token formats", () => {
    const samples = [
      "AKIAABCDEFGHIJKLMNOP",
      `ghp_${"a".repeat(36)}`,
      `xoxb-${"1".repeat(12)}`,
      "postgres://user:pw@db.example/x",
      `sk_live_${"a".repeat(24)}`,
      `token="${"t".repeat(24)}"`,
      `npm_${"n".repeat(36)}`,
    ];
    for (const s of samples) assert.equal(sanitizeSecrets(`pre ${s} post`), `pre ${REDACTED} post`, `redacts ${s.slice(0, 8)}`);
    assert.equal(sanitizeSecrets("nothing secret here"), "nothing secret here", "plain text untouched");
    assert.equal(sanitizeSecrets(""), "", "empty string");
  });

  it("redacts unquoted generic secrets and postgresql URLs, and never joins words into a database URL", () => {
    assert.equal(sanitizeSecrets(`next token=${"a".repeat(26)} end`), `next ${REDACTED} end`, "unquoted token");
    assert.equal(sanitizeSecrets("postgresql://u:p@h/db"), REDACTED, "the postgresql scheme");
    const words = "postgres://host:5432/db and user:pw@x";
    assert.equal(sanitizeSecrets(words), words, "a URL without credentials and a later user:pw@ stay apart");
  });

  it("redacts metadata keys as well as values", () => {
    assert.deepEqual(
      sanitizeMetadata({ "password=abc": "x", note: "api_key=abcdefghijklmnopqrstu" }),
      { [REDACTED]: "x", note: REDACTED },
      "both sides",
    );
    const odd = sanitizeMetadata(JSON.parse('{"__proto__": "v"}'));
    assert.equal(Object.getPrototypeOf(odd), Object.prototype, "a __proto__ key does not replace the prototype");
    assert.deepEqual(Object.keys(odd), ["__proto__"], "it stays an ordinary key");
  });
});
