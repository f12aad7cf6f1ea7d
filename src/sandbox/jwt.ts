// HS256 JSON Web Tokens with node:crypto only (the sandbox needs no JWT library).
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface TokenClaims {
  sub: string;
  unique_name: string;
  email: string;
  permissions: string[];
  iat: number;
  exp: number;
}

function base64url(input: string | Buffer): string {
  return Buffer.from(input).toString('base64url');
}

function signature(secret: string, signingInput: string): Buffer {
  return createHmac('sha256', secret).update(signingInput).digest();
}

export function signToken(claims: TokenClaims, secret: string): string {
  const signingInput = `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}`;
  return `${signingInput}.${signature(secret, signingInput).toString('base64url')}`;
}

/** The claims of a well-signed, unexpired token; undefined otherwise. */
export function verifyToken(token: string, secret: string, now: Date): TokenClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, sig] = parts as [string, string, string];
  const expected = signature(secret, `${header}.${payload}`);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let claims: unknown;
  try {
    const parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown };
    if (parsedHeader.alg !== 'HS256') return undefined;
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const candidate = claims as Partial<TokenClaims>;
  if (typeof candidate.sub !== 'string' || typeof candidate.exp !== 'number' || !Array.isArray(candidate.permissions)) return undefined;
  if (candidate.exp * 1000 <= now.getTime()) return undefined;
  return candidate as TokenClaims;
}
