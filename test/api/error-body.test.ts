import { describe, expect, it } from 'vitest';
import { serverMessages } from '../../src/api/error-body.js';

describe('serverMessages', () => {
  it('reads problem+json: title, detail and every field error', () => {
    const body = {
      type: 'https://tools.ietf.org/html/rfc7231#section-6.5.1',
      title: 'One or more validation errors occurred.',
      status: 400,
      detail: 'See the errors.',
      traceId: '00-abc',
      errors: { Title: ['The Title field is required.'], SiteId: ['Invalid site.', 'Site is closed.'] },
    };
    expect(serverMessages(body, 'application/problem+json', 400)).toEqual([
      'One or more validation errors occurred.',
      'See the errors.',
      'Title: The Title field is required.',
      'SiteId: Invalid site.',
      'SiteId: Site is closed.',
    ]);
  });

  it('reads a JSON string', () => {
    expect(serverMessages('Ticket not found', 'application/json', 404)).toEqual(['Ticket not found']);
  });

  it.each([
    [{ message: 'Token expired' }, ['Token expired']],
    [{ Message: 'The request is invalid.' }, ['The request is invalid.']],
    [{ error: 'invalid_grant', error_description: 'Bad password' }, ['Bad password', 'invalid_grant']],
    [{ error: { code: 'E1', message: 'nested message' } }, ['nested message']],
    [{ errors: ['first', 'second'] }, ['first', 'second']],
    [{ errors: [{ field: 'Email', message: 'unknown user' }, { description: 'locked out' }] }, ['Email: unknown user', 'locked out']],
    [
      { Message: 'The request is invalid.', ModelState: { 'model.Title': ['too long'], '': ['general'] } },
      ['The request is invalid.', 'model.Title: too long', 'general'],
    ],
    [
      ['a', 'b'],
      ['a', 'b'],
    ],
    [42, ['42']],
  ])('reads %j', (body, expected) => {
    expect(serverMessages(body, 'application/json', 400)).toEqual(expected);
  });

  it('falls back to compact JSON for an unknown object shape', () => {
    expect(serverMessages({ code: 17 }, 'application/json', 500)).toEqual(['{"code":17}']);
  });

  it('reduces any depth and size to a few short lines, without walking what it does not print', () => {
    let deep: unknown = { message: 'too deep to look for' };
    for (let i = 0; i < 100_000; i++) deep = { error: deep, list: [deep] };
    const lines = serverMessages(deep, 'application/json', 500);
    expect(lines.length).toBeLessThanOrEqual(5);
    expect(lines.every((line) => line.length <= 300)).toBe(true);

    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
    expect(serverMessages(wide, 'application/json', 500)).toEqual([`${JSON.stringify(wide).slice(0, 299)}…`]);
  });

  it('trims plain text and keeps it to a few lines', () => {
    const text = '\n  Save failed  \n\n' + Array.from({ length: 20 }, (_, i) => `at frame ${i}`).join('\n');
    const lines = serverMessages(text, 'text/plain', 500);
    expect(lines[0]).toBe('Save failed');
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe('(and 17 more)');
  });

  it('clips a very long line', () => {
    const [line] = serverMessages('x'.repeat(5000), 'text/plain', 500);
    expect(line?.length).toBeLessThanOrEqual(300);
  });

  it('gives an HTML page as status and title, never markup', () => {
    const page =
      '<!DOCTYPE html><html><head><title>Runtime Error &amp; Co</title><style>body{}</style></head><body><h1>Server Error in &#39;/&#39;</h1></body></html>';
    expect(serverMessages(page, 'text/html; charset=utf-8', 500)).toEqual(['HTTP 500: Runtime Error & Co']);
  });

  it('does not repeat the status already in the title, and copes without a title', () => {
    expect(serverMessages('<html><head><title>502 Bad Gateway</title></head></html>', 'text/html', 502)).toEqual(['502 Bad Gateway']);
    expect(serverMessages('<html><body><h1>Down <b>for</b> maintenance</h1></body></html>', undefined, 503)).toEqual(['HTTP 503: Down for maintenance']);
    expect(serverMessages('<html><body>nothing</body></html>', 'text/html', 500)).toEqual(['HTTP 500 (HTML error page)']);
  });

  it('gives nothing for an empty body', () => {
    expect(serverMessages(undefined, undefined, 500)).toEqual([]);
    expect(serverMessages('   ', 'text/plain', 500)).toEqual([]);
  });
});
