// Which redirects tkt follows. Only a GET's: a change is neither repeated at another address nor
// turned into a GET, as a 301, 302 or 303 would make of a POST, so no method is ever rewritten.
// At most five in a row, only to http(s), and the token only within the configured origin.
import { header, type Received, type ResponseHeaders } from './answer.js';

const MAX_REDIRECTS = 5;
export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

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

/**
 * The origin of `url` (`parsed`, as URL reads it): the token goes to the configured origin only,
 * never to a redirect target elsewhere. A URL under the service's is of its origin: URL's origin
 * getter, read per request, was a tenth of a bulk close's own time.
 */
export function originOf(url: string, parsed: URL, baseOrigin: string): string {
  return url.startsWith(`${baseOrigin}/`) ? baseOrigin : parsed.origin;
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

/** Where the request to `requestUrl` (the base URL `baseUrl` and a path) was sent instead, and whether it carried the token. */
export interface RedirectContext {
  requestUrl: string;
  baseUrl: string;
  withToken: boolean;
}

/**
 * The next step after a redirect to `target` that tkt did not follow (a change's) or that led a
 * GET away from the service to fail there: the --url it points to, when the target is the same
 * path under another base URL (a service that moved, or wants https); a sign-in page elsewhere
 * is named, not offered as the service.
 */
export function redirectHint(target: string, { requestUrl, baseUrl, withToken }: RedirectContext): string {
  const to = new URL(target, requestUrl);
  const from = new URL(requestUrl);
  const path = requestUrl.slice(baseUrl.length);
  const movedTo = path !== '' && to.href.endsWith(path) ? to.href.slice(0, -path.length) : undefined;
  const useUrl = movedTo === undefined || movedTo === baseUrl ? '' : `: use --url ${movedTo}`;
  const redirected = `the service redirected to ${to.href}`;
  if (to.origin === from.origin) return `${redirected}${useUrl || ': tkt follows the redirects of a GET only (a change is never sent twice)'}`;
  if (from.protocol === 'http:' && to.protocol === 'https:' && from.hostname === to.hostname) return `${redirected} (it wants https)${useUrl}`;
  return `${redirected} (another origin${withToken ? '; the token is not sent there' : ''})${useUrl}`;
}
