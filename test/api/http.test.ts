import { describe, expect, it } from 'vitest';
import { classifyNetworkError, joinUrl, MAX_RETRY_DELAY_MS, retryAfterMs } from '../../src/api/http.js';
import { pathSegment } from '../../src/api/plans.js';

describe('joinUrl', () => {
  it.each([
    ['http://h:1', '/api/x', 'http://h:1/api/x'],
    ['http://h:1/', 'api/x', 'http://h:1/api/x'],
    ['https://h/sub/', '/api/x?y=1', 'https://h/sub/api/x?y=1'],
    ['https://h/sub', '//evil.example/x', 'https://h/sub/evil.example/x'],
  ])('%s + %s', (base, path, expected) => {
    expect(joinUrl(base, path)).toBe(expected);
  });

  it('keeps a segment from adding path parts or a query', () => {
    expect(pathSegment('../x?y#z')).toBe('..%2Fx%3Fy%23z');
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads seconds and HTTP dates, capped', () => {
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('3600', now)).toBe(MAX_RETRY_DELAY_MS);
  });

  it('ignores a missing or unreadable value', () => {
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});

describe('classifyNetworkError', () => {
  const withCode = (code: string, cause?: unknown): Error => Object.assign(new Error(code), { code, cause });

  it.each([
    [withCode('ECONNREFUSED'), 'refused'],
    [new AggregateError([withCode('ECONNREFUSED')]), 'refused'],
    [withCode('ENOTFOUND'), 'dns'],
    [withCode('EAI_AGAIN'), 'dns'],
    [withCode('UND_ERR_HEADERS_TIMEOUT'), 'timeout'],
    [withCode('UND_ERR_CONNECT_TIMEOUT'), 'timeout'],
    [new TypeError('fetch failed', { cause: withCode('SELF_SIGNED_CERT_IN_CHAIN') }), 'tls'],
    [withCode('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), 'tls'],
    [withCode('ERR_TLS_CERT_ALTNAME_INVALID'), 'tls'],
    [withCode('ECONNRESET'), 'reset'],
    [withCode('UND_ERR_SOCKET'), 'reset'],
    [new Error('something else'), 'other'],
  ])('%s -> %s', (error, failure) => {
    expect(classifyNetworkError(error)).toBe(failure);
  });
});
