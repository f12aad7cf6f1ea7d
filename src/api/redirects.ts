// Which redirects tkt follows. Only a GET's: a change is neither repeated at another address nor
// turned into a GET, as a 301, 302 or 303 would make of a POST, so no method is ever rewritten.
// At most five in a row, only to http(s), and the token only within the configured origin.
import { header, type Received, type ResponseHeaders } from './answer.js';

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Where `answer` to `method` at `fromUrl` sends the request next, or undefined when it is the answer. */
export function redirectTarget(
  method: string,
  answer: { status: number; headers: ResponseHeaders },
  fromUrl: string,
  redirectsSoFar: number,
): string | undefined {
  const location = header(answer.headers, 'location');
  if (method !== 'GET' || !REDIRECT_STATUSES.has(answer.status) || !location || redirectsSoFar >= MAX_REDIRECTS) return undefined;
  const next = new URL(location, fromUrl);
  return next.protocol === 'http:' || next.protocol === 'https:' ? next.href : undefined;
}

/** The token goes to the configured origin only, never to a redirect target elsewhere. */
export function carriesToken(url: string | URL, baseOrigin: string): boolean {
  return (typeof url === 'string' ? new URL(url) : url).origin === baseOrigin;
}

/** One try of a request: `send` at `firstUrl`, then wherever the redirects lead. */
export async function followRedirects(
  method: string,
  firstUrl: string,
  send: (url: string) => Promise<Received>,
  trace: ((line: string) => void) | undefined,
): Promise<Received> {
  let url = firstUrl;
  for (let redirects = 0; ; redirects++) {
    const answer = await send(url);
    const next = redirectTarget(method, answer, url, redirects);
    if (next === undefined) return answer;
    trace?.(`HTTP redirect ${answer.status} ${url} -> ${next}`);
    url = next;
  }
}
