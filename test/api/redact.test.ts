import { describe, expect, it } from 'vitest';
import { redactJson, redactText } from '../../src/api/redact.js';

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
