import { describe, expect, it } from 'vitest';
import type { Received } from '../../src/api/answer.js';
import { destinationsUnder, followRedirects, redirectTarget } from '../../src/api/redirects.js';

const to = (location: string | string[] | undefined, status = 302) => ({ status, headers: { location } });

describe('redirectTarget', () => {
  it.each([301, 302, 303, 307, 308])('follows a GET answered %i, resolving the location against the URL', (status) => {
    expect(redirectTarget('GET', to('/api/y?z=1', status), 'http://h:1/sub/api/x', 0)).toBe('http://h:1/api/y?z=1');
    expect(redirectTarget('GET', to('y', status), 'http://h:1/sub/api/x', 0)).toBe('http://h:1/sub/api/y');
    expect(redirectTarget('GET', to('https://other.example/landing', status), 'http://h:1/x', 0)).toBe('https://other.example/landing');
  });

  // Following would repeat a change at another address, or (301-303) turn it into a GET.
  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('never follows a %s', (method) => {
    expect(redirectTarget(method, to('/elsewhere', 307), 'http://h/x', 0)).toBeUndefined();
    expect(redirectTarget(method, to('/elsewhere', 303), 'http://h/x', 0)).toBeUndefined();
  });

  it('takes an answer that is no redirect, or has no location, as the answer', () => {
    expect(redirectTarget('GET', to('/y', 200), 'http://h/x', 0)).toBeUndefined();
    expect(redirectTarget('GET', to('/y', 304), 'http://h/x', 0)).toBeUndefined();
    expect(redirectTarget('GET', to(undefined), 'http://h/x', 0)).toBeUndefined();
    expect(redirectTarget('GET', to(''), 'http://h/x', 0)).toBeUndefined();
  });

  it('reads the first of repeated Location headers', () => {
    expect(redirectTarget('GET', to(['/first', '/second']), 'http://h/x', 0)).toBe('http://h/first');
  });

  it('stops after five redirects in a row', () => {
    expect(redirectTarget('GET', to('/y'), 'http://h/x', 4)).toBe('http://h/y');
    expect(redirectTarget('GET', to('/y'), 'http://h/x', 5)).toBeUndefined();
  });

  it.each(['file:///etc/passwd', 'ftp://h/x', 'javascript:alert(1)', 'data:text/plain,hi'])('does not follow a redirect to %s', (location) => {
    expect(redirectTarget('GET', to(location), 'http://h/x', 0)).toBeUndefined();
  });
});

describe('destinationsUnder (the token goes to the configured origin only)', () => {
  const carriesToken = (url: string, baseOrigin: string) => destinationsUnder(baseOrigin)(url).origin === baseOrigin;

  it('is the configured origin within it only', () => {
    expect(carriesToken('http://h:8642/api/x?y=1', 'http://h:8642')).toBe(true);
    expect(carriesToken('http://H:8642/other', 'http://h:8642')).toBe(true);
    expect(carriesToken('https://h:8642/api/x', 'http://h:8642')).toBe(false);
    expect(carriesToken('http://h:8643/api/x', 'http://h:8642')).toBe(false);
    expect(carriesToken('http://evil.example/api/x', 'http://h:8642')).toBe(false);
    expect(carriesToken('http://h.evil.example:8642/', 'http://h:8642')).toBe(false);
  });

  // The shortcut for URLs under the service's must not let another origin pass as it.
  it('reads the URL for anything that only looks like the service at its start', () => {
    expect(carriesToken('http://h:8642@evil.example/api/x', 'http://h:8642')).toBe(false);
    expect(destinationsUnder('http://h')('http://h:80/api/x')).toEqual({ origin: 'http://h', path: '/api/x' });
  });

  // A plan's URL is cut, not parsed: what it sends must be what URL would have made of it.
  it.each([
    '/api/TicketsApi/close/7',
    '/sub/api/TicketsApi?listType=all&page=2',
    '/',
    "/api/x!$&()*+,;=:@~_-/y?q=a%20b&it's",
    '/api/a b',
    '/api/./x',
    '/api/../x',
    '/api/%2e%2E/x',
    '/api/.well-known',
    '/api/x?',
    '/api/x?a?b',
    '/api/x#part',
    '/api/x\\y',
    '/api/\u00e9t\u00e9',
    '/api/{x}|<y>',
    '/api/x?q="1"',
    '/api/%zz',
    '/api/x?path=/../y',
    '/api/x\ty',
  ])('sends %j as URL reads it', (path) => {
    const url = `http://h:8642${path}`;
    const parsed = new URL(url);
    expect(destinationsUnder('http://h:8642')(url)).toEqual({ origin: 'http://h:8642', path: `${parsed.pathname}${parsed.search}` });
  });
});

describe('followRedirects', () => {
  /** A send that answers each URL from `answers` (a redirect by default) and records the URLs. */
  function sender(answers: Record<string, Partial<Received>>) {
    const sent: string[] = [];
    const send = async (url: string): Promise<Received> => {
      sent.push(url);
      return { status: 200, headers: {}, url, body: undefined, problem: undefined, ...answers[url] };
    };
    return { sent, send };
  }

  it('sends to each place in turn, tracing each hop, and returns the final answer', async () => {
    const { sent, send } = sender({
      'http://h/a': { status: 301, headers: { location: '/b' } },
      'http://h/b': { status: 307, headers: { location: 'http://other/c' } },
      'http://other/c': { status: 200, body: { done: true } },
    });
    const lines: string[] = [];

    const final = await followRedirects('GET', 'http://h/a', send, (line) => lines.push(line));

    expect(sent).toEqual(['http://h/a', 'http://h/b', 'http://other/c']);
    expect(final).toMatchObject({ status: 200, url: 'http://other/c', body: { done: true } });
    expect(lines).toEqual(['HTTP redirect 301 http://h/a -> http://h/b', 'HTTP redirect 307 http://h/b -> http://other/c']);
  });

  it('returns the sixth redirect in a row as the answer: the request and five redirects', async () => {
    const loop = { status: 302, headers: { location: '/again' } };
    const { sent, send } = sender({ 'http://h/start': loop, 'http://h/again': loop });

    expect(await followRedirects('GET', 'http://h/start', send, () => undefined)).toMatchObject({ status: 302 });
    expect(sent).toHaveLength(6);
  });

  it('returns the redirect of a POST as its answer', async () => {
    const { sent, send } = sender({ 'http://h/a': { status: 303, headers: { location: '/b' } } });
    expect(await followRedirects('POST', 'http://h/a', send, () => undefined)).toMatchObject({ status: 303 });
    expect(sent).toEqual(['http://h/a']);
  });
});
