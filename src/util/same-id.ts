// User IDs are GUIDs, whose letters are hex digits in either case (RFC 9562): the service may
// write one in upper case where a token's claims have it in lower.
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether two values are the same: equal as text, or the same GUID in another case. */
export function sameId(a: unknown, b: unknown): boolean {
  const [one, other] = [String(a), String(b)];
  return one === other || (GUID.test(one) && GUID.test(other) && one.toLowerCase() === other.toLowerCase());
}
