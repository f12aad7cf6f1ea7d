import { describe, expect, it } from 'vitest';
import { redactJson, redactSecrets, redactText, secretValues } from '../../src/api/redact.js';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc-DEF_123';

describe('redactText', () => {
  it('hides bearer tokens, JWTs, and secret JSON fields and query parameters', () => {
    expect(redactText(`authorization: Bearer opaque-token-123`)).toBe('authorization: Bearer ***');
    expect(redactText(`token is ${JWT} ok`)).toBe('token is *** ok');
    expect(redactText('{"Email":"ann","Password":"p\\"w","Token":"abc"}')).toBe('{"Email":"ann","Password":"***","Token":"***"}');
    expect(redactText('GET /x?page=2&access_token=abc&password=pw')).toBe('GET /x?page=2&access_token=***&password=***');
  });

  it('leaves ordinary text alone', () => {
    const line = 'HTTP < 200 GET http://127.0.0.1:8642/api/TicketsApi/5 12ms';
    expect(redactText(line)).toBe(line);
  });
});

describe('redactJson', () => {
  it('replaces secret fields at any depth without changing the input', () => {
    const input = { Email: 'ann', Password: 'pw', user: { Token: JWT, name: 'Ann' }, notes: [`has ${JWT}`] };
    expect(redactJson(input)).toEqual({ Email: 'ann', Password: '***', user: { Token: '***', name: 'Ann' }, notes: ['has ***'] });
    expect(input.Password).toBe('pw');
  });
});

describe('known secrets and credential-shaped text', () => {
  it('replaces the exact secrets it is given, also as they appear inside a JSON string', () => {
    const password = 'pa"ss\\word';
    expect(redactText(`echo: pa"ss\\word and ${JSON.stringify({ p: password })}`, [password])).toBe('echo: *** and {"p":"***"}');
    expect(redactSecrets('opaque-token-1 here', ['opaque-token-1', undefined, ''])).toBe('*** here');
  });

  it('hides Basic credentials and Authorization, Cookie and API key header values', () => {
    expect(redactText('Authorization: Basic dXNlcjpwYXNz')).toBe('Authorization: Basic ***');
    expect(redactText('authorization=raw-value; Cookie: session=abc; X-Api-Key: k1')).toBe('authorization=***; Cookie: ***; X-Api-Key: ***');
    expect(redactText('redirect -> https://ann:s3cret@sso.example/login')).toBe('redirect -> https://***@sso.example/login');
  });

  it('walks no deeper than it must: a hostile nesting is cut, not a stack overflow', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(JSON.stringify(redactJson(deep)).length).toBeLessThan(1000);
  });

  it('names the secret fields of a request body', () => {
    expect(secretValues({ Email: 'ann', Password: 'pw', RememberMe: true })).toEqual(['pw']);
    expect(secretValues('text')).toEqual([]);
  });
});
