import { describe, expect, it } from 'vitest';
import { formatBytes, parseBody, unexpectedBody } from '../../src/api/body.js';

describe('parseBody and unexpectedBody', () => {
  it('tells JSON, text, an HTML page and broken or absurdly deep JSON apart', () => {
    expect(parseBody('{"id":1}', 'text/html')).toEqual({ body: { id: 1 }, problem: undefined });
    expect(parseBody('hello', 'text/plain')).toEqual({ body: 'hello', problem: undefined });
    expect(parseBody('', 'application/json')).toEqual({ body: undefined, problem: undefined });
    expect(parseBody('<html><title>Sign in</title></html>', undefined).problem).toBe('an HTML page ("Sign in"): is a sign-in gateway in front of the service?');
    expect(parseBody('{"id":', 'application/json').problem).toBe('JSON that does not parse (6 bytes, truncated or malformed)');
    expect(parseBody('['.repeat(300) + ']'.repeat(300), 'application/json').problem).toBe('JSON nested more than 256 levels deep');
    expect(parseBody('['.repeat(200) + ']'.repeat(200), 'application/json').problem).toBeUndefined();
  });

  it('checks a 2xx body against what the endpoint returns', () => {
    const check = (text: string, expectation: Parameters<typeof unexpectedBody>[1]) => unexpectedBody(parseBody(text, 'application/json'), expectation);
    expect(check('{"id":1}', 'object')).toBeUndefined();
    expect(check('[]', 'object')).toBe('a JSON array where an object was expected');
    expect(check('[]', 'json')).toBeUndefined();
    expect(check('', 'json')).toBe('an empty body');
    expect(check('null', 'object')).toBe('a JSON null where an object was expected');
    expect(check('', 'any')).toBeUndefined();
    expect(check('{"id":', 'any')).toBe('JSON that does not parse (6 bytes, truncated or malformed)');
    expect(check('{"id":', 'unchecked')).toBeUndefined();
  });

  it("takes a create's empty body when a Location header gives the new ticket's address, and only then", () => {
    const created = (text: string, location?: string) => unexpectedBody(parseBody(text, 'application/json'), 'created', location);
    expect(created('', '/api/TicketsApi/7')).toBeUndefined();
    expect(created('{"id":7}')).toBeUndefined();
    expect(created('')).toBe('an empty body');
    expect(created('', '')).toBe('an empty body');
    expect(created('[]', '/api/TicketsApi/7')).toBe('a JSON array where an object was expected');
    expect(created('null', '/api/TicketsApi/7')).toBe('a JSON null where an object was expected');
  });
});

describe('formatBytes', () => {
  it('rounds to a readable unit', () => {
    expect([formatBytes(900), formatBytes(64 * 1024 * 1024), formatBytes(1.5 * 1024 ** 3), formatBytes(2048)]).toEqual([
      '900 bytes',
      '64 MB',
      '1.5 GB',
      '2 KB',
    ]);
  });
});
