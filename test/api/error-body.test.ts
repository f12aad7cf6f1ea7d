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

  it('gives an HTML page as status and title, then what its headings and paragraphs say, never markup', () => {
    const page =
      '<!DOCTYPE html><html><head><title>Runtime Error &amp; Co</title><style>body{}</style></head><body><h1>Server Error in &#39;/&#39;</h1></body></html>';
    expect(serverMessages(page, 'text/html; charset=utf-8', 500)).toEqual(['HTTP 500: Runtime Error & Co', "Server Error in '/'"]);
  });

  // A service's own error page: the message is in a paragraph, under a title that says only the status's name.
  it("keeps an error page's message: a paragraph under a title, inline markup flowing, no script or style", () => {
    const page =
      '<!DOCTYPE html><html><head><title>Bad Request</title><script>alert("x<p>no</p>")</script></head>' +
      '<body><!-- <p>a comment</p> --><p>Ticket <b>not</b>\n found</p><style>p { color: red }</style></body></html>';
    expect(serverMessages(page, 'text/html', 400)).toEqual(['HTTP 400: Bad Request', 'Ticket not found']);
    const login = '<html><head><title>Error 401</title></head><body><h1>Sign-in failed</h1><p>Username or password is incorrect.</p></body></html>';
    expect(serverMessages(login, 'text/html', 401)).toEqual(['Error 401', 'Sign-in failed', 'Username or password is incorrect.']);
  });

  it('does not repeat the status already in the title, nor a heading the title says, and copes without a title', () => {
    expect(serverMessages('<html><head><title>502 Bad Gateway</title></head></html>', 'text/html', 502)).toEqual(['502 Bad Gateway']);
    const nginx = '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
    expect(serverMessages(nginx, 'text/html', 502)).toEqual(['502 Bad Gateway']);
    expect(serverMessages('<html><body><h1>Down <b>for</b> maintenance</h1></body></html>', undefined, 503)).toEqual(['HTTP 503: Down for maintenance']);
    expect(serverMessages('<html><body>nothing</body></html>', 'text/html', 500)).toEqual(['HTTP 500 (HTML error page)', 'nothing']);
  });

  it('reads the text of a page without headings or paragraphs, block by block', () => {
    const page = '<html><body><div>Ticket 42 was not found.</div><div>Request ID: <code>abc</code></div></body></html>';
    expect(serverMessages(page, 'text/html', 400)).toEqual(['HTTP 400 (HTML error page)', 'Ticket 42 was not found.', 'Request ID: abc']);
  });

  it('reads any page in bounded time and to a few short lines: unclosed tags, a huge page, an endless script', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `<p>${i} ${'x'.repeat(1000)}</p>`).join('');
    const lines = serverMessages(`<html><body>${many}</body></html>`, 'text/html', 500);
    expect(lines).toHaveLength(5);
    expect(lines.every((line) => line.length <= 300)).toBe(true);
    for (const page of ['<p'.repeat(500_000), '<html><body>' + '<a <b '.repeat(200_000), '<script>' + 'x'.repeat(2_000_000), 'a < b '.repeat(300_000)]) {
      const started = Date.now();
      serverMessages(page, 'text/html', 500);
      expect(Date.now() - started).toBeLessThan(1000);
    }
  });

  it('gives nothing for an empty body', () => {
    expect(serverMessages(undefined, undefined, 500)).toEqual([]);
    expect(serverMessages('   ', 'text/plain', 500)).toEqual([]);
  });
});
