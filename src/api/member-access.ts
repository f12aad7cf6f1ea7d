// Responses may use camelCase or PascalCase (docs/service.md 2.2 shows both); every field
// is read through these helpers, never by direct property access.
import { isObject } from '../util/json-object.js';

// Offered here too, with the other helpers the readers of responses take from this file.
export { isObject };

/** The value of the first of `names` present in `obj`, compared without regard to case. */
export function field(obj: unknown, ...names: string[]): unknown {
  if (!isObject(obj)) return undefined;
  for (const name of names) {
    if (name in obj) return obj[name];
  }
  // Any case, but still in the caller's order of preference, not the object's key order.
  const keys = new Map(Object.keys(obj).map((key) => [key.toLowerCase(), key]));
  for (const name of names) {
    const key = keys.get(name.toLowerCase());
    if (key !== undefined) return obj[key];
  }
  return undefined;
}

export function stringField(obj: unknown, ...names: string[]): string | undefined {
  const value = field(obj, ...names);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** A collection from a lookup response, tolerating `status` vs `Status` vs `statuses`. */
export function arrayField(obj: unknown, ...names: string[]): unknown[] {
  const value = field(obj, ...names);
  return Array.isArray(value) ? value : [];
}
