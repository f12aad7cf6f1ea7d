// Reading a JWT's claims without verifying it: the server verifies; tkt only needs to know
// who the token says the caller is, when it runs out, and the odd permission that changes what
// the service shows it.
import { isObject, type JsonObject } from '../util/json-object.js';

export type JwtClaims = JsonObject;

const SCHEMA_CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/';
const USER_ID_CLAIMS = ['sub', 'nameid', `${SCHEMA_CLAIMS}nameidentifier`];
const USERNAME_CLAIMS = ['unique_name', 'name', 'preferred_username', `${SCHEMA_CLAIMS}name`];

/** The payload of `header.payload.signature`, or undefined when it is not a JWT. */
export function decodeJwtClaims(token: string): JwtClaims | undefined {
  const parts = token.trim().split('.');
  if (parts.length !== 3 || !parts[1]) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    return isObject(payload) ? payload : undefined;
  } catch {
    return undefined;
  }
}

export function userIdFromClaims(claims: JwtClaims | undefined): string | undefined {
  return firstTextClaim(claims, USER_ID_CLAIMS);
}

export function usernameFromClaims(claims: JwtClaims | undefined): string | undefined {
  return firstTextClaim(claims, USERNAME_CLAIMS);
}

/** `exp` is in seconds since the epoch (RFC 7519). */
export function expiryFromClaims(claims: JwtClaims | undefined): Date | undefined {
  const exp = claims?.exp;
  return typeof exp === 'number' && Number.isFinite(exp) ? new Date(exp * 1000) : undefined;
}

/**
 * Whether the token carries the permission claim `permission` (docs/service.md 5.5). The spec
 * names the permissions, not the claim that holds them: any claim whose value is `permission`,
 * or a list with it, counts.
 */
export function holdsPermission(claims: JwtClaims | undefined, permission: string): boolean {
  return Object.values(claims ?? {}).some((value) => value === permission || (Array.isArray(value) && value.includes(permission)));
}

/**
 * Whether the token lists the caller's permissions, so that one missing from it is missing indeed:
 * a claim holds a permission of the service (`Tickets.`...), or is named for them (`permissions`,
 * though empty). A token that names none says nothing either way.
 */
export function listsPermissions(claims: JwtClaims | undefined): boolean {
  const isPermission = (value: unknown) => typeof value === 'string' && value.startsWith(PERMISSION_PREFIX);
  return Object.entries(claims ?? {}).some(
    ([name, value]) => PERMISSIONS_CLAIM.test(name) || isPermission(value) || (Array.isArray(value) && value.some(isPermission)),
  );
}

// The permissions of docs/service.md 5.5 all start so.
const PERMISSION_PREFIX = 'Tickets.';
const PERMISSIONS_CLAIM = /permission/i;

function firstTextClaim(claims: JwtClaims | undefined, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = claims?.[name];
    if (typeof value === 'string' && value !== '') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return undefined;
}
