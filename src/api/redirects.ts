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

/** Where a request goes: its URL's origin, and the path with the query that the request line names. */
export interface Destination {
  origin: string;
  path: string;
}

/** Characters URL leaves as they are in a path and a query (a fragment's # is not one). */
const KEPT_AS_IS = /^[\w\-.~!$&()*+,;=:@/%?]*$/;
/** A segment URL would resolve away ("." or "..", also as %2e): any that starts with a dot, to be safe. */
const DOT_SEGMENT = /\/(?:\.|%2e)/i;

/**
 * The destinations of URLs as URL reads them; the token goes to `baseOrigin` (the configured
 * service's) only, never to a redirect target elsewhere. A URL under the service's is of its
 * origin, and one whose path URL would leave as it is (every plan's: IDs and encoded values) is
 * cut rather than parsed: parsing each and reading its getters was a tenth of a bulk close's own
 * time.
 */
export function destinationsUnder(baseOrigin: string): (url: string) => Destination {
  const under = `${baseOrigin}/`;
  return (url) => {
    const underBase = url.startsWith(under);
    if (underBase) {
      const path = url.slice(under.length - 1);
      const query = path.indexOf('?');
      // URL drops a query left empty ("/x?" asks for "/x").
      if (KEPT_AS_IS.test(path) && !DOT_SEGMENT.test(query === -1 ? path : path.slice(0, query)) && !path.endsWith('?')) return { origin: baseOrigin, path };
    }
    const parsed = new URL(url);
    return { origin: underBase ? baseOrigin : parsed.origin, path: `${parsed.pathname}${parsed.search}` };
  };
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
 * The next step after a redirect to `target` that tkt did not follow (a POST's) or that led a
 * GET away from the service to fail there: the --url it points to, when the target is the same
 * path under another base URL (a service that moved, or wants https); a sign-in page elsewhere
 * is named, not offered as the service. `read`: the request only reads (a list's POST), so no
 * change was held back.
 */
export function redirectHint(target: string, { requestUrl, baseUrl, withToken }: RedirectContext, read: boolean): string {
  const to = new URL(target, requestUrl);
  const from = new URL(requestUrl);
  const path = requestUrl.slice(baseUrl.length);
  const movedTo = path !== '' && to.href.endsWith(path) ? to.href.slice(0, -path.length) : undefined;
  const useUrl = movedTo === undefined || movedTo === baseUrl ? '' : `: use --url ${movedTo}`;
  const redirected = `the service redirected to ${to.href}`;
  const notFollowed = read
    ? ': tkt follows the redirects of a GET only, and this read is a POST'
    : ': tkt follows the redirects of a GET only (a change is never sent twice)';
  if (to.origin === from.origin) return `${redirected}${useUrl || notFollowed}`;
  if (from.protocol === 'http:' && to.protocol === 'https:' && from.hostname === to.hostname) return `${redirected} (it wants https)${useUrl}`;
  return `${redirected} (another origin${withToken ? '; the token is not sent there' : ''})${useUrl}`;
}
