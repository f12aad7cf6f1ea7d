import { describe, expect, it } from 'vitest';
import { assertTransportAllowed, isLoopbackHost, normalizeBaseUrl } from '../../src/config/url.js';
import { ExitCode, UsageError } from '../../src/errors.js';

function usageErrorOf(action: () => unknown): UsageError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('expected a UsageError');
}

describe('normalizeBaseUrl', () => {
  it.each([
    ['https://helpdesk.example.com/', 'https://helpdesk.example.com'],
    ['  https://Helpdesk.Example.com  ', 'https://helpdesk.example.com'],
    ['https://helpdesk.example.com:443/', 'https://helpdesk.example.com'],
    ['http://127.0.0.1:5000', 'http://127.0.0.1:5000'],
    ['https://example.com/helpdesk/', 'https://example.com/helpdesk'],
    ['https://example.com/a/b//', 'https://example.com/a/b'],
    ['http://[::1]:8080/', 'http://[::1]:8080'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeBaseUrl(input)).toBe(expected);
  });

  it.each([
    ['no scheme', 'helpdesk.example.com', /did you mean https:\/\/helpdesk\.example\.com/],
    ['a remote host:port', 'helpdesk.example.com:8443', /did you mean https:\/\/helpdesk\.example\.com:8443\?/],
    ['a loopback host (plain http is allowed there)', 'localhost', /did you mean http:\/\/localhost\?/],
    ['ftp', 'ftp://example.com', /http:\/\/ or https:\/\//],
    // No "did you mean https://not a url?": that is no URL either.
    ['junk', 'not a url', /^give the service's base URL, e\.g\. https:\/\/helpdesk\.example\.com$/],
    ['empty', '', /^give the service's base URL, e\.g\. https:\/\/helpdesk\.example\.com$/],
  ])('refuses %s with exit 2 and a hint', (_label, input, hint) => {
    const error = usageErrorOf(() => normalizeBaseUrl(input));
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.hint).toMatch(hint);
  });

  it.each([
    ['localhost:5000', 'http://localhost:5000'],
    ['127.0.0.1:8642', 'http://127.0.0.1:8642'],
    ['127.0.0.1:8642/helpdesk', 'http://127.0.0.1:8642/helpdesk'],
    ['[::1]:8080', 'http://[::1]:8080'],
    ['helpdesk.example.com:8443', 'https://helpdesk.example.com:8443'],
  ])('reads %s as a host and port missing the scheme (not as a scheme), and suggests %s', (input, suggested) => {
    const error = usageErrorOf(() => normalizeBaseUrl(input));
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toBe(`invalid service URL ${JSON.stringify(input)}: no http:// or https:// before the host`);
    expect(error.hint).toBe(`did you mean ${suggested}?`);
  });

  it('refuses credentials, queries and fragments', () => {
    expect(usageErrorOf(() => normalizeBaseUrl('https://me:secret@example.com')).message).not.toContain('secret');
    usageErrorOf(() => normalizeBaseUrl('https://example.com/?tenant=1'));
    usageErrorOf(() => normalizeBaseUrl('https://example.com/#x'));
  });
});

describe('isLoopbackHost', () => {
  it.each(['localhost', 'LOCALHOST', 'localhost.', '127.0.0.1', '127.1.2.3', '127.255.255.255', '::1', '[::1]', '[::ffff:7f00:1]'])('%s is loopback', (host) =>
    expect(isLoopbackHost(host)).toBe(true),
  );

  it.each(['example.com', '10.0.0.1', '128.0.0.1', '127.0.0.256', '127.0.0', 'localhost.example.com', '127.0.0.1.evil.com', '::2', '0.0.0.0'])(
    '%s is not loopback',
    (host) => expect(isLoopbackHost(host)).toBe(false),
  );
});

describe('assertTransportAllowed', () => {
  it('accepts https anywhere and http on loopback', () => {
    expect(() => assertTransportAllowed('https://helpdesk.example.com', false, 'login')).not.toThrow();
    expect(() => assertTransportAllowed('http://localhost:5000', false, 'login')).not.toThrow();
    expect(() => assertTransportAllowed('http://127.0.0.1:5000/prefix', false, 'login')).not.toThrow();
    expect(() => assertTransportAllowed('http://[::1]:5000', false, 'login')).not.toThrow();
  });

  it('refuses plain http to another host, explaining why', () => {
    const error = usageErrorOf(() => assertTransportAllowed('http://helpdesk.internal:8080', false, 'login'));
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toContain('helpdesk.internal:8080');
    expect(error.message).toMatch(/password and token would cross the network unencrypted/);
    expect(error.hint).toMatch(/--allow-http once for this profile/);
  });

  it('says to pass --allow-http on the command when the token comes from TKT_TOKEN: no login saved a profile', () => {
    const error = usageErrorOf(() => assertTransportAllowed('http://helpdesk.internal:8080', false, 'env'));
    expect(error.hint).toMatch(/--allow-http on the command \(with TKT_TOKEN/);
    expect(error.hint).not.toMatch(/for this profile/);
  });

  it('accepts plain http to another host once allowed', () => {
    expect(() => assertTransportAllowed('http://helpdesk.internal:8080', true, 'login')).not.toThrow();
  });
});
