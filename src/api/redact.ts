// Secrets never reach the terminal (docs/cli.md section 4): not in the --debug trace,
// not in an error line, not in a JSON Lines error, even when a service, a WAF or a proxy
// quotes the request back. Two kinds of redaction:
// - the secrets tkt knows it sent (the token, the password): replaced wherever they appear;
// - anything shaped like a credential (Authorization/Cookie values, Bearer and Basic
//   credentials, JWTs, password/token fields and query parameters, user:password@ in URLs),
//   replaced in the text
//   tkt prints about a failure or a request.

export const REDACTED = '***';

const SECRET_KEY = /password|passwd|token|secret|authorization|api[-_]?key|cookie/i;

// A JWT is three base64url parts; its header always starts `eyJ` ('{"').
const JWT = /eyJ[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*){0,2}/g;
const CREDENTIAL = /\b((?:Bearer|Basic)\s+)[^\s"',;]+/gi;
const HEADER_SECRET = /\b((?:authorization|proxy-authorization|x-api-key|cookie|set-cookie)["']?\s*[:=]\s*["']?)(?!(?:Bearer|Basic)\s)[^\s"',;]+/gi;
const JSON_SECRET_FIELD = /("[^"]*(?:password|passwd|token|secret|authorization|api[-_]?key|cookie)[^"]*"\s*:\s*)"(?:[^"\\]|\\.)*"/gi;
const URL_USERINFO = /(\/\/)[^/\s:@]+:[^/\s@]+@/g;
const QUERY_SECRET_PARAM = /([?&][^=&#\s]*(?:password|passwd|token|secret|api[-_]?key)[^=&#\s]*=)[^&#\s]*/gi;

/** Nesting beyond this is not walked: a hostile body must not exhaust the stack. */
const MAX_DEPTH = 64;

function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** Every exact secret, and the form it takes inside a JSON string, longest first. */
function secretForms(secrets: readonly (string | undefined)[]): string[] {
  const forms = secrets.flatMap((secret) => (secret === undefined || secret === '' ? [] : [secret, JSON.stringify(secret).slice(1, -1)]));
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

/** Replaces the exact `secrets` only: cheap, and safe on any text (a response body). */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return secretsRedactor(secrets)(text);
}

/** redactSecrets for the same `secrets` again and again (every answer of a run): their forms found once. */
export function secretsRedactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const forms = secretForms(secrets);
  return (text) => {
    let result = text;
    for (const form of forms) if (result.includes(form)) result = result.split(form).join(REDACTED);
    return result;
  };
}

/** Redacts free text printed about a request or a failure: `secrets`, and anything credential-shaped. */
export function redactText(text: string, secrets: readonly (string | undefined)[] = []): string {
  return redactSecrets(text, secrets)
    .replace(JSON_SECRET_FIELD, `$1"${REDACTED}"`)
    .replace(QUERY_SECRET_PARAM, `$1${REDACTED}`)
    .replace(URL_USERINFO, `$1${REDACTED}@`)
    .replace(CREDENTIAL, `$1${REDACTED}`)
    .replace(HEADER_SECRET, `$1${REDACTED}`)
    .replace(JWT, REDACTED);
}

/**
 * A copy of a JSON value with every secret-named field replaced and every string redacted;
 * what lies deeper than MAX_DEPTH is replaced too.
 */
export function redactJson(value: unknown, secrets: readonly (string | undefined)[] = [], depth = 0): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactJson(item, secrets, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [redactText(key, secrets), isSecretKey(key) ? REDACTED : redactJson(inner, secrets, depth + 1)]),
  );
}

/** The values of a request body's secret-named fields (the password of a login). */
export function secretValues(json: unknown): string[] {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return [];
  return Object.entries(json).flatMap(([key, value]) => (isSecretKey(key) && typeof value === 'string' ? [value] : []));
}

/**
 * The secrets of a request body that an answer must not show back: those of secretValues that the
 * body does not also carry openly (a password that is the user name is shown as the user name).
 */
export function echoableSecrets(json: unknown): string[] {
  const secrets = secretValues(json);
  if (secrets.length === 0) return secrets;
  const open = new Set(Object.entries(json as object).flatMap(([key, value]) => (!isSecretKey(key) && typeof value === 'string' ? [value] : [])));
  return secrets.filter((secret) => !open.has(secret));
}

/**
 * A copy of a JSON value with `redact` applied to its strings, but not to its names nor to the
 * values of secret-named fields: the credentials the service issues (a login's Token) are kept
 * as they came, and are never printed (docs/cli.md section 4).
 */
export function redactStrings(value: unknown, redact: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return redact(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, isSecretKey(key) ? inner : redactStrings(inner, redact, depth + 1)]));
}
