// A parsed JSON object, checked before its members are read: the service's answers
// (api/fields.ts) and tkt's own files (config/store.ts, config/jwt.ts). It lives in util, the
// layer both api and config may import, so that the two share one definition.

export type JsonObject = Record<string, unknown>;

/** Not null, not an array: an object whose members may be read. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
