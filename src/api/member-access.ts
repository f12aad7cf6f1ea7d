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
  // Any case, but still in the caller's order of preference, not the object's key order (of keys
  // alike but for case, the last). One pass over the keys, no function per key: a detail shown
  // looks up a hundred fields, a third of them under another case, and a callback run for every
  // key of each (500 calls) was enough for Node 24 to start its Maglev compiler: 2 MB of memory.
  const wanted = names.map(lowerCase);
  let found: string | undefined;
  let foundAt = wanted.length;
  for (const key of Object.keys(obj)) {
    const at = wanted.indexOf(key.toLowerCase());
    if (at !== -1 && at <= foundAt) {
      found = key;
      foundAt = at;
    }
  }
  return found === undefined ? undefined : obj[found];
}

const lowerCase = (text: string): string => text.toLowerCase();

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
