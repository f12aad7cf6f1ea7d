// What to do about a request that got no HTTP answer (docs/cli.md section 1): a certificate the
// machine does not trust names the ways to trust a private CA, TLS spoken to a plain-http port
// names its http:// URL, and a refused or unreachable proxy is named as the proxy, not mistaken
// for the service.
import { BlockList, isIP } from 'node:net';
import { isLoopbackHost } from '../config/url.js';
import type { ProxySettings } from './proxy-env.js';
import type { NetworkFailure } from '../errors.js';

/** NODE_USE_SYSTEM_CA=1 (trust the operating system's store) exists from Node 24.6 and 22.19. */
export function supportsSystemCaVariable(nodeVersion: string): boolean {
  const [major = 0, minor = 0] = nodeVersion.replace(/^v/, '').split('.').map(Number);
  return major > 24 || (major === 24 && minor >= 6) || (major === 23 && minor >= 9) || (major === 22 && minor >= 19);
}

/**
 * What to do about a certificate this machine does not trust, of `whose` (the service, or an
 * https:// proxy). `extraCaFile` is the process's NODE_EXTRA_CA_CERTS, which Node read at
 * start: a file it could not load (it only warns) is named, for setting it again would not help.
 */
export function tlsHint(nodeVersion: string, extraCaFile: string | undefined, whose = 'the service'): string {
  const systemCa = supportsSystemCaVariable(nodeVersion) ? ', or NODE_USE_SYSTEM_CA=1 to trust the system certificate store' : '';
  if (!extraCaFile) return `if ${whose} uses a private CA, set NODE_EXTRA_CA_CERTS to its PEM file${systemCa}`;
  if (!holdsCertificates(extraCaFile)) {
    return `NODE_EXTRA_CA_CERTS names ${extraCaFile}, which could not be loaded (Node ignored it): point it at a readable PEM file of ${whose}'s CA`;
  }
  return `if ${whose} uses a private CA, add it to the PEM file NODE_EXTRA_CA_CERTS names (${extraCaFile})${systemCa}`;
}

/** Whether `file` reads as PEM certificates, as Node needs it to for NODE_EXTRA_CA_CERTS. */
function holdsCertificates(file: string): boolean {
  try {
    // Read only for this advice: node:fs is not loaded by the HTTP client otherwise.
    return process.getBuiltinModule('node:fs').readFileSync(file, 'latin1').includes('-----BEGIN CERTIFICATE-----');
  } catch {
    return false;
  }
}

/**
 * For a certificate that is trusted but not for the host asked for (Node's
 * ERR_TLS_CERT_ALTNAME_INVALID): the names it is for, when the error carries it. `url`: the
 * service's, or an https:// proxy's (`whose` and `remedy` then name the proxy and its variable).
 */
export function certificateNameHint(error: unknown, url: string, whose = 'the certificate', remedy = 'use a --url with a name it is for'): string | undefined {
  const mismatch = findCause(error, ({ code }) => code === 'ERR_TLS_CERT_ALTNAME_INVALID') as
    { cert?: { subjectaltname?: unknown; subject?: { CN?: unknown } } } | undefined;
  if (mismatch === undefined) return undefined;
  const { hostname } = new URL(url);
  const altNames = mismatch.cert?.subjectaltname;
  const names =
    typeof altNames === 'string' && altNames !== ''
      ? altNames.split(/,\s*/).map((name) => name.replace(/^[^:]*:/, ''))
      : typeof mismatch.cert?.subject?.CN === 'string'
        ? [mismatch.cert.subject.CN]
        : [];
  const host = hostname.replace(/^\[|\]$/g, '');
  return names.length === 0 ? `${whose} is not for ${host}: ${remedy}` : `${whose} is for ${names.join(', ')}, not ${host}: ${remedy}`;
}

/**
 * For a certificate that is trusted but out of its dates (OpenSSL's CERT_HAS_EXPIRED,
 * CERT_NOT_YET_VALID): no CA is missing, so no CA hint; the date when the error carries the
 * certificate (its valid_to or valid_from, as Node writes them), and the clock of this machine,
 * which is the cause as often as the certificate.
 */
export function certificateDateHint(error: unknown, now: Date): string | undefined {
  const expired = findCause(error, ({ code }) => code === 'CERT_HAS_EXPIRED') as { cert?: { valid_to?: unknown } } | undefined;
  const early = findCause(error, ({ code }) => code === 'CERT_NOT_YET_VALID') as { cert?: { valid_from?: unknown } } | undefined;
  const clock = `this machine's clock (it says ${isoSeconds(now.getTime())})`;
  if (expired !== undefined) {
    const date = dateText(expired.cert?.valid_to);
    return `the service's certificate has expired${date === undefined ? '' : ` (on ${date})`}: its owner must renew it; if it should still be valid, check ${clock}`;
  }
  if (early === undefined) return undefined;
  const date = dateText(early.cert?.valid_from);
  return `the service's certificate is not valid yet${date === undefined ? '' : ` (from ${date})`}: check ${clock}`;
}

/** A certificate's date as Node gives it ("Nov 26 01:36:51 2026 GMT"), in ISO 8601; undefined when there is none. */
function dateText(value: unknown): string | undefined {
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isNaN(time) ? undefined : isoSeconds(time);
}

const isoSeconds = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The error, or one of its causes, that `matches`. */
function findCause(error: unknown, matches: (error: { code?: unknown; data?: unknown }) => boolean, depth = 0): object | undefined {
  if (typeof error !== 'object' || error === null || depth > 4) return undefined;
  return matches(error) ? error : findCause((error as { cause?: unknown }).cause, matches, depth + 1);
}

/** OpenSSL's words when a TLS handshake gets an answer that is not TLS: a plain-http port, most often. */
export function isPlainHttpAnswer(codes: readonly string[], words: string): boolean {
  return codes.includes('ERR_SSL_WRONG_VERSION_NUMBER') || /wrong version number/i.test(words);
}

/** For https to a port that speaks plain http: its http:// origin, allowed without --allow-http on loopback only (docs/cli.md section 4). */
export function plainHttpHint(url: string): string {
  const { hostname, host } = new URL(url);
  const allow = isLoopbackHost(hostname) ? '' : ' (with --allow-http, if you trust the network)';
  return `the service may speak plain http on that port: try http://${host}${allow}`;
}

/** For an https:// proxy that answered TLS in plain http: the proxy's http:// URL, in the variable it came from. */
export function plainHttpProxyHint(proxy: string, variable: string): string {
  return `the proxy may speak plain http: write it as http://${new URL(proxy).host} in ${variable}`;
}

/**
 * Whether a proxy answered tkt's plain-text CONNECT with a TLS record (a handshake or an alert:
 * type 0x14-0x17, version 3.x): undici's HTTP parser error carries the bytes it could not read.
 */
export function isTlsAnswer(error: unknown): boolean {
  return findCause(error, ({ data }) => typeof data === 'string' && /^[\x14-\x17]\x03/.test(data)) !== undefined;
}

/** For an http:// proxy that answered in TLS: the proxy's https:// URL, in the variable it came from. */
export function httpsProxyHint(proxy: string, variable: string): string {
  return `the proxy may speak https: write it as https://${new URL(proxy).host} in ${variable}`;
}

/** The variable a request to `url` takes its proxy from, as the user wrote it (undici reads lower case first). */
export function proxyVariable(url: string, proxies: ProxySettings): string {
  const { httpProxy, httpsProxy } = proxies.variables ?? { httpProxy: 'HTTP_PROXY', httpsProxy: 'HTTPS_PROXY' };
  return proxies.httpsProxy !== '' && url.startsWith('https:') ? httpsProxy : httpProxy;
}

/** The proxy a request to `url` goes through, as tkt shows it (without credentials); undefined when it goes direct. */
export function shownProxyFor(url: URL, proxies: ProxySettings): string | undefined {
  const proxy = proxyFor(url, proxies);
  if (proxy === undefined) return undefined;
  try {
    return shownProxy(new URL(proxy));
  } catch {
    return `${proxyVariable(url.href, proxies)} (not a URL)`;
  }
}

/** For --debug: the way a request to `url` goes, when a proxy variable is set. */
export function proxyRoute(url: URL, proxies: ProxySettings): string {
  const proxy = shownProxyFor(url, proxies);
  if (proxy !== undefined) return ` via proxy ${proxy}`;
  return proxies.httpProxy !== '' || proxies.httpsProxy !== '' ? ' direct (NO_PROXY)' : '';
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * The proxy a request to `url` goes through, or undefined when it goes direct: HTTPS_PROXY for
 * https (else HTTP_PROXY), HTTP_PROXY for http, unless NO_PROXY names the host (or a domain it
 * is in, with or without a port; `*` names all). These are undici's EnvHttpProxyAgent's rules,
 * which sends the requests that go through a proxy (transport.ts), and curl's CIDR ranges for an
 * IP address (`10.0.0.0/8`), which undici lacks: such a request goes direct without undici.
 */
export function proxyFor(url: URL, proxies: ProxySettings): string | undefined {
  // The variables first: without a proxy, the URL's getters are not read (an exchange asks for every request).
  const proxy = proxies.httpsProxy !== '' && url.protocol === 'https:' ? proxies.httpsProxy : proxies.httpProxy;
  if (proxy === '' || proxies.noProxy === '*') return undefined;
  // url.host keeps an IPv6 address's brackets, as NO_PROXY writes it.
  const hostname = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number(url.port) || DEFAULT_PORTS[url.protocol] || 0;
  for (const entry of proxies.noProxy.split(/[,\s]/)) {
    if (entry === '') continue;
    if (entry.includes('/')) {
      if (inRange(hostname, entry)) return undefined;
      continue;
    }
    const withPort = /^(.+):(\d+)$/.exec(entry);
    const entryPort = withPort ? Number(withPort[2]) : 0;
    const entryHost = (withPort ? withPort[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    if (entryPort !== 0 && entryPort !== port) continue;
    if (hostname === entryHost || hostname.endsWith(`.${entryHost}`)) return undefined;
  }
  return proxy;
}

/** Whether the IP address `host` (an IPv6 one in brackets) is in the CIDR range `range` (its address without brackets). */
function inRange(host: string, range: string): boolean {
  const address = host.replace(/^\[|\]$/g, '');
  const [network = '', prefix = ''] = range.split('/');
  const family = isIP(address);
  if (family === 0 || isIP(network) !== family || !/^\d{1,3}$/.test(prefix)) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const list = new BlockList();
  try {
    list.addSubnet(network, Number(prefix), type);
  } catch {
    // A prefix longer than the address (10.0.0.0/40): no range.
    return false;
  }
  return list.check(address, type);
}

/**
 * The proxy did not open the tunnel to the service: it answered CONNECT with `status`, or the
 * connection to it failed first (the `cause`). Nothing reached the service. Its code is tkt's
 * own: undici takes a tunnel that failed with its socket error code for a connection to try
 * again at once, and would open thousands a second until the deadline.
 */
export class ProxyTunnelError extends Error {
  override readonly name = 'ProxyTunnelError';
  readonly code = 'TKT_PROXY_TUNNEL';

  /** `proxy`: its URL without credentials; `status`: its answer to CONNECT. */
  constructor(
    readonly proxy: string,
    readonly status: number | undefined,
    cause?: unknown,
  ) {
    super(status === undefined ? `no tunnel through the proxy ${proxy}` : `the proxy ${proxy} answered CONNECT with ${status}`, { cause });
  }
}

/** A proxy's URL as tkt shows it: without the credentials it may hold. */
export function shownProxy(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

/** HTTP(S)_PROXY applies to a request but is not a proxy's URL: thrown instead of sending it. */
export class UnusableProxyError extends Error {
  override readonly name = 'UnusableProxyError';
}

/** Throws UnusableProxyError unless `proxy` is an http:// or https:// URL (undici's only kinds). */
export function checkProxyUrl(proxy: string): void {
  let protocol: string;
  try {
    protocol = new URL(proxy).protocol;
  } catch {
    protocol = '';
  }
  // The value is not shown: it may hold the proxy's credentials.
  if (protocol !== 'http:' && protocol !== 'https:') throw new UnusableProxyError('the proxy of HTTPS_PROXY / HTTP_PROXY is not an http:// or https:// URL');
}

/**
 * The proxy of a request to `url` that failed, when the failed connection was to it: the
 * error's port is the proxy's, its address the proxy's host.
 */
export function failedProxy(error: unknown, url: string, proxies: ProxySettings): string | undefined {
  const proxy = proxyFor(new URL(url), proxies);
  if (proxy === undefined) return undefined;
  let proxyUrl: URL;
  try {
    proxyUrl = new URL(proxy);
  } catch {
    return undefined;
  }
  const proxyPort = Number(proxyUrl.port || (proxyUrl.protocol === 'https:' ? 443 : 80));
  const proxyHost = proxyUrl.hostname.replace(/^\[|\]$/g, '');
  const matches = connectionTargets(error).some(
    ({ address, port }) => port === proxyPort && (address === undefined || isIP(proxyHost) === 0 || address === proxyHost),
  );
  return matches ? shownProxy(proxyUrl) : undefined;
}

/** The address and port of every connection attempt in an error and its causes. */
function connectionTargets(error: unknown, depth = 0): Array<{ address?: string; port: number }> {
  if (typeof error !== 'object' || error === null || depth > 4) return [];
  const { address, port, cause, errors } = error as { address?: unknown; port?: unknown; cause?: unknown; errors?: unknown };
  const own = typeof port === 'number' ? [{ address: typeof address === 'string' ? address : undefined, port }] : [];
  const nested = Array.isArray(errors) ? errors.flatMap((inner) => connectionTargets(inner, depth + 1)) : [];
  return [...own, ...connectionTargets(cause, depth + 1), ...nested];
}

/**
 * For a request that could not reach the service at `url` (a refused connection, a host name that
 * does not resolve): check the URL, and on this machine whether the service, or the sandbox, runs.
 * `profile`: the profile whose saved URL it is, named as the other errors of a run name it.
 * Undefined for other failures, which carry their own hints.
 */
export function unreachedServiceHint(url: string, failure: NetworkFailure, profile?: string): string | undefined {
  const { hostname, host, origin } = new URL(url);
  const theUrl = profile === undefined ? 'the URL' : `profile ${profile}'s URL`;
  if (failure === 'dns') return `check the host name in ${theUrl} (${host})`;
  if (failure !== 'refused') return undefined;
  if (isLoopbackHost(hostname)) return `nothing answers at ${host}: check ${theUrl}, and that the service (or "tkt sandbox") is running there`;
  return `check ${theUrl} (${origin}), and that the service is running there`;
}
