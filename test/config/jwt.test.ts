import { describe, expect, it } from 'vitest';
import { decodeJwtClaims, expiryFromClaims, listsPermissions, userIdFromClaims, usernameFromClaims } from '../../src/config/jwt.js';
import { fakeJwt } from './jwt-fixture.js';

const LONG = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/';

describe('decodeJwtClaims', () => {
  it('reads the base64url payload, including characters base64 would spell + and /', () => {
    const claims = { sub: '42', name: 'Zoë ~?>>?', role: ['a', 'b'] };
    const token = fakeJwt(claims);
    expect(token.split('.')[1]).toMatch(/[-_]/);
    expect(decodeJwtClaims(token)).toEqual(claims);
  });

  it.each([
    ['not a token', 'opaque-api-key'],
    ['two parts', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9'],
    ['payload not JSON', 'eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.sig'],
    ['payload an array', `x.${Buffer.from('[1,2]').toString('base64url')}.sig`],
    ['payload null', `x.${Buffer.from('null').toString('base64url')}.sig`],
    ['empty payload', 'x..sig'],
  ])('gives undefined for %s', (_label, token) => {
    expect(decodeJwtClaims(token)).toBeUndefined();
  });
});

describe('userIdFromClaims', () => {
  it.each([
    ['sub', { sub: '7' }],
    ['nameid', { nameid: '7' }],
    ['the long nameidentifier claim', { [`${LONG}nameidentifier`]: '7' }],
    ['a numeric claim', { nameid: 7 }],
  ])('reads %s', (_label, claims) => {
    expect(userIdFromClaims(decodeJwtClaims(fakeJwt(claims)))).toBe('7');
  });

  it('prefers sub, then nameid, and skips empty values', () => {
    expect(userIdFromClaims({ sub: '1', nameid: '2', [`${LONG}nameidentifier`]: '3' })).toBe('1');
    expect(userIdFromClaims({ sub: '', nameid: '2', [`${LONG}nameidentifier`]: '3' })).toBe('2');
  });

  it('gives undefined when no claim names the user', () => {
    expect(userIdFromClaims({ email: 'a@b.c', sub: { nested: true } })).toBeUndefined();
    expect(userIdFromClaims(undefined)).toBeUndefined();
  });
});

describe('usernameFromClaims', () => {
  it.each([
    ['unique_name', { unique_name: 'jdoe' }],
    ['name', { name: 'jdoe' }],
    ['preferred_username', { preferred_username: 'jdoe' }],
    ['the long name claim', { [`${LONG}name`]: 'jdoe' }],
  ])('reads %s', (_label, claims) => {
    expect(usernameFromClaims(claims)).toBe('jdoe');
  });

  it('gives undefined when absent', () => {
    expect(usernameFromClaims({ sub: '7' })).toBeUndefined();
  });
});

describe('expiryFromClaims', () => {
  it('reads exp as seconds since the epoch', () => {
    expect(expiryFromClaims({ exp: 1_893_456_000 })?.toISOString()).toBe('2030-01-01T00:00:00.000Z');
  });

  it('gives undefined without a numeric exp', () => {
    expect(expiryFromClaims({ exp: 'tomorrow' })).toBeUndefined();
    expect(expiryFromClaims({})).toBeUndefined();
    expect(expiryFromClaims(undefined)).toBeUndefined();
  });
});

describe('listsPermissions', () => {
  it.each([
    ['a list of the service permissions', { permissions: ['Tickets.Create'] }],
    ['a claim named for them, though empty', { permissions: [] }],
    ['one permission under another name', { role: 'Tickets.Close' }],
    ['a list under another name', { scope: ['openid', 'Tickets.Reply'] }],
  ])('is true for %s', (_label, claims) => {
    expect(listsPermissions(decodeJwtClaims(fakeJwt({ sub: '7', ...claims })))).toBe(true);
  });

  it('is false for a token that names no permission, or no token to read', () => {
    expect(listsPermissions(decodeJwtClaims(fakeJwt({ sub: '7', unique_name: 'ci-bot', scope: ['openid'] })))).toBe(false);
    expect(listsPermissions(decodeJwtClaims('opaque-api-key'))).toBe(false);
  });
});
