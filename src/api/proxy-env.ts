// The proxy variables of a run's environment. Apart from network-advice.ts (which needs node:net)
// so that the full CLI's host can tell, without loading the HTTP client, whether a long-running
// command needs the proxy's client loaded ahead (src/process-host.ts).

/** The proxy settings, read from the run's environment; '' is "none". */
export interface ProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
  /** The variables the proxies came from, as the messages name them; HTTP_PROXY and HTTPS_PROXY when not given. */
  variables?: { httpProxy: string; httpsProxy: string };
}

/**
 * The proxy variables as undici reads them (lower case first), from `env` rather than
 * process.env: given explicitly, undici reads nothing else.
 */
export function proxySettings(env: Readonly<Record<string, string | undefined>>): ProxySettings {
  return {
    httpProxy: withScheme(env.http_proxy ?? env.HTTP_PROXY ?? ''),
    httpsProxy: withScheme(env.https_proxy ?? env.HTTPS_PROXY ?? ''),
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
    variables: {
      httpProxy: env.http_proxy === undefined ? 'HTTP_PROXY' : 'http_proxy',
      httpsProxy: env.https_proxy === undefined ? 'HTTPS_PROXY' : 'https_proxy',
    },
  };
}

/** A proxy written without a scheme (`proxy:3128`) is an http:// one, as curl, pip and git take it. */
function withScheme(proxy: string): string {
  return proxy === '' || /^[a-z][a-z\d+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`;
}

/** Whether `env` names a proxy for any request: without one, no request of the run goes through undici (transport.ts). */
export function namesProxy(env: Readonly<Record<string, string | undefined>>): boolean {
  const { httpProxy, httpsProxy } = proxySettings(env);
  return httpProxy !== '' || httpsProxy !== '';
}
