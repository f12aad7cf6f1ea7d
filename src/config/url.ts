// The service's base URL: validation, normalisation and the plain-http guard (docs/cli.md section 4).
import { UsageError } from '../errors.js';
import { envValue } from '../util/env.js';

/** `https://host[:port][/prefix]`: http(s) only, no credentials, query or fragment, no trailing slash. */
export function normalizeBaseUrl(input: string): string {
  const text = input.trim();
  // "localhost:5000" would parse with "localhost:" as its scheme: a host and port come first.
  if (HOST_AND_PORT.test(text)) {
    throw new UsageError(`invalid service URL ${JSON.stringify(input)}: no http:// or https:// before the host`, { hint: hintForSchemeless(text) });
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`invalid service URL ${JSON.stringify(input)}`, { hint: hintForSchemeless(text) });
  }
  // "mailto:x" or "helpdesk:" parses with a scheme of its own.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`invalid service URL ${JSON.stringify(input)}: only http and https are supported`, {
      hint: hintForSchemeless(text),
    });
  }
  if (url.username || url.password) {
    throw new UsageError('the service URL must not contain a user name or password', {
      hint: 'pass the URL without them; "tkt login" asks for the credentials',
    });
  }
  if (url.search || url.hash) {
    throw new UsageError(`invalid service URL ${JSON.stringify(input)}: a base URL has no query or fragment`);
  }
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The base URL without the /api it ends in, or undefined when it ends otherwise: every path of
 * the service starts with /api (docs/service.md 4), so such a base URL sends to /api/api/...
 */
export function withoutApi(baseUrl: string): string | undefined {
  const cut = /\/api\/?$/i.exec(baseUrl);
  return cut === null ? undefined : baseUrl.slice(0, cut.index);
}

/** The run's base URL is its profile's (saved with it, or its token's): neither --url nor TKT_URL gave one. */
export function urlIsProfiles(globals: { url?: string | undefined }, env: Readonly<Record<string, string | undefined>>): boolean {
  return globals.url === undefined && envValue(env, 'TKT_URL') === undefined;
}

/** Where the run's base URL came from, for a hint that it looks wrong: --url, TKT_URL, else the profile. */
export function baseUrlSource(globals: { url?: string | undefined }, env: Readonly<Record<string, string | undefined>>): string {
  if (urlIsProfiles(globals, env)) return "the profile's URL";
  return globals.url !== undefined ? '--url' : 'TKT_URL';
}

/** Exit 2 for logging in to a base URL ending in /api (withoutApi), before anything is asked or sent. */
export function assertLoginBaseUrl(baseUrl: string, source: string): void {
  const meant = withoutApi(baseUrl);
  if (meant === undefined) return;
  throw new UsageError(`the service URL ${baseUrl} ends in /api, which tkt adds to every request (POST /api/Users/authenticate)`, {
    hint: `is ${source} the service's base URL? (without /api: ${meant})`,
  });
}

/** `host:port` or `[v6]:port`, maybe with a path: a URL missing its scheme. */
const HOST_AND_PORT = /^(\[[0-9a-f:.]+\]|[^\s/:@[\]]+):\d+(\/\S*)?$/i;

/**
 * The URL the user likely meant: plain http on loopback (the sandbox's, allowed there), https
 * elsewhere; for text that is no host with a scheme put before it (empty, spaces), an example.
 */
function hintForSchemeless(text: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return 'use an http:// or https:// URL';
  if (!URL.canParse(`https://${text}`)) return "give the service's base URL, e.g. https://helpdesk.example.com";
  return `did you mean ${loopbackHostOf(text) ? 'http' : 'https'}://${text}?`;
}

function loopbackHostOf(schemeless: string): boolean {
  try {
    return isLoopbackHost(new URL(`http://${schemeless}`).hostname);
  } catch {
    return false;
  }
}

const IPV4_LOOPBACK = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
// WHATWG URL writes ::ffff:127.0.0.1 as ::ffff:7f00:1.
const MAPPED_IPV4_LOOPBACK = /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/;

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  if (host === 'localhost' || host === '::1' || MAPPED_IPV4_LOOPBACK.test(host)) return true;
  const octets = IPV4_LOOPBACK.exec(host);
  return octets !== null && octets.slice(1).every((octet) => Number(octet) <= 255);
}

/**
 * Plain http is fine on this machine; elsewhere it needs --allow-http: saved with a login's
 * profile for that login's URL (its origin: `savedFor`), or given on each command when the token
 * comes from TKT_TOKEN (no login saves it).
 */
export function assertTransportAllowed(baseUrl: string, allowHttp: boolean, tokenFrom: 'login' | 'env', savedFor?: string): void {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' || allowHttp || isLoopbackHost(url.hostname)) return;
  throw new UsageError(`refusing plain http to ${url.host}: the password and token would cross the network unencrypted`, {
    hint:
      tokenFrom === 'env'
        ? 'use https, or pass --allow-http on the command (with TKT_TOKEN, on every run: no login saves it)'
        : savedFor === undefined
          ? 'use https, or pass --allow-http once for this profile'
          : `use https, or pass --allow-http (this profile has it for ${savedFor} only)`,
  });
}

/**
 * What `tkt login --url` takes to log in to a server listening at `url` (tkt sandbox): on every
 * interface (0.0.0.0, ::) that is loopback's, where plain http is allowed; another host needs
 * --allow-http, as assertTransportAllowed says.
 */
export function loginUrlFor(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === '0.0.0.0') parsed.hostname = '127.0.0.1';
  else if (parsed.hostname === '[::]') parsed.hostname = '[::1]';
  const base = parsed.origin;
  return isLoopbackHost(parsed.hostname) ? base : `${base} --allow-http`;
}
