// Secrets never reach the --debug trace (contract section 4): the Authorization
// header, anything shaped like a JWT, and password/token fields.

export const REDACTED = '***';

const SECRET_KEY = /password|passwd|token|secret|authorization|api[-_]?key/i;

// A JWT is three base64url parts; its header always starts `eyJ` ('{"').
const JWT = /eyJ[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*){0,2}/g;
const BEARER = /\b(Bearer\s+)[^\s"',;]+/gi;
const JSON_SECRET_FIELD = /("[^"]*(?:password|passwd|token|secret|authorization|api[-_]?key)[^"]*"\s*:\s*)"(?:[^"\\]|\\.)*"/gi;
const QUERY_SECRET_PARAM = /([?&][^=&#\s]*(?:password|passwd|token|secret|api[-_]?key)[^=&#\s]*=)[^&#\s]*/gi;

function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** Redacts secrets from free text: trace lines, URLs, serialized JSON. */
export function redactText(text: string): string {
  return text
    .replace(JSON_SECRET_FIELD, `$1"${REDACTED}"`)
    .replace(QUERY_SECRET_PARAM, `$1${REDACTED}`)
    .replace(BEARER, `$1${REDACTED}`)
    .replace(JWT, REDACTED);
}

/** A deep copy of a JSON value with every secret-named field replaced. */
export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, isSecretKey(key) ? REDACTED : redactJson(inner)]),
    );
  }
  return typeof value === 'string' ? redactText(value) : value;
}
