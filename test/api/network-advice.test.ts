import { describe, expect, it } from 'vitest';
import { proxyFor } from '../../src/api/network-advice.js';

const HTTP = 'http://proxy:3128';
const HTTPS = 'http://secure-proxy:3129';

describe('proxyFor', () => {
  it.each([
    // [url, HTTP_PROXY, HTTPS_PROXY, NO_PROXY, the proxy used]
    ['http://svc.example/x', HTTP, '', '', HTTP],
    ['https://svc.example/x', HTTP, '', '', HTTP],
    ['https://svc.example/x', HTTP, HTTPS, '', HTTPS],
    ['http://svc.example/x', '', HTTPS, '', undefined],
    ['http://svc.example/x', '', '', '', undefined],
    ['http://svc.example/x', HTTP, '', '*', undefined],
    ['http://svc.example/x', HTTP, '', 'other.example, svc.example', undefined],
    ['http://SVC.example/x', HTTP, '', 'svc.EXAMPLE', undefined],
    ['http://api.svc.example/x', HTTP, '', '.svc.example', undefined],
    ['http://api.svc.example/x', HTTP, '', '*.svc.example', undefined],
    ['http://api.svc.example/x', HTTP, '', 'svc.example', undefined],
    ['http://notsvc.example/x', HTTP, '', 'svc.example', HTTP],
    ['http://svc.example:8080/x', HTTP, '', 'svc.example:8080', undefined],
    ['http://svc.example:8081/x', HTTP, '', 'svc.example:8080', HTTP],
    ['http://svc.example/x', HTTP, '', 'svc.example:80', undefined],
    ['https://svc.example/x', HTTP, '', 'svc.example:80', HTTP],
    ['http://127.0.0.1:9/x', HTTP, '', '127.0.0.1', undefined],
    ['http://[::1]:9/x', HTTP, '', '[::1]', undefined],
    ['http://[::1]:9/x', HTTP, '', '::1', HTTP],
  ])('%s with HTTP_PROXY=%j HTTPS_PROXY=%j NO_PROXY=%j goes through %s', (url, httpProxy, httpsProxy, noProxy, expected) => {
    expect(proxyFor(new URL(url), { httpProxy, httpsProxy, noProxy })).toBe(expected);
  });
});
