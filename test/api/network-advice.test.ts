import { describe, expect, it } from 'vitest';
import { certificateDateHint, proxyFor, unreachedServiceHint } from '../../src/api/network-advice.js';

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
    // CIDR ranges, as curl takes them, for an IP address only.
    ['http://127.0.0.1:9/x', HTTP, '', '127.0.0.0/8', undefined],
    ['http://10.20.30.40/x', HTTP, '', 'example.com, 10.0.0.0/8', undefined],
    ['http://11.0.0.1/x', HTTP, '', '10.0.0.0/8', HTTP],
    ['http://[::1]:9/x', HTTP, '', '::1/128', undefined],
    ['http://[fd00::5]/x', HTTP, '', '10.0.0.0/8', HTTP],
    ['http://10.0.0.1/x', HTTP, '', '10.0.0.0/40', HTTP],
    ['http://svc.example/x', HTTP, '', '0.0.0.0/0', HTTP],
  ])('%s with HTTP_PROXY=%j HTTPS_PROXY=%j NO_PROXY=%j goes through %s', (url, httpProxy, httpsProxy, noProxy, expected) => {
    expect(proxyFor(new URL(url), { httpProxy, httpsProxy, noProxy })).toBe(expected);
  });
});

describe('certificateDateHint', () => {
  const now = new Date('2026-03-01T12:00:00.123Z');
  const verifyError = (code: string, cert?: object) =>
    Object.assign(new Error(code === 'CERT_HAS_EXPIRED' ? 'certificate has expired' : 'certificate is not yet valid'), { code, cert });

  it('says the certificate expired, and when if the error carries it, with no CA advice', () => {
    expect(certificateDateHint(verifyError('CERT_HAS_EXPIRED', { valid_to: 'Feb 28 23:59:59 2026 GMT' }), now)).toBe(
      "the service's certificate has expired (on 2026-02-28T23:59:59Z): its owner must renew it; if it should still be valid, check this machine's clock (it says 2026-03-01T12:00:00Z)",
    );
    // Node's verify error carries no certificate: said without the date.
    expect(certificateDateHint({ cause: verifyError('CERT_HAS_EXPIRED') }, now)).toBe(
      "the service's certificate has expired: its owner must renew it; if it should still be valid, check this machine's clock (it says 2026-03-01T12:00:00Z)",
    );
  });

  it('points a certificate not valid yet at the clock', () => {
    expect(certificateDateHint(verifyError('CERT_NOT_YET_VALID', { valid_from: 'Mar  2 00:00:00 2026 GMT' }), now)).toBe(
      "the service's certificate is not valid yet (from 2026-03-02T00:00:00Z): check this machine's clock (it says 2026-03-01T12:00:00Z)",
    );
  });

  it('says nothing of other TLS failures', () => {
    expect(certificateDateHint(Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), now)).toBeUndefined();
  });
});

describe('unreachedServiceHint', () => {
  it('says to check the URL, and on this machine whether the service or the sandbox runs', () => {
    expect(unreachedServiceHint('http://localhost:8080', 'refused')).toBe(
      'nothing answers at localhost:8080: check the URL, and that the service (or "tkt sandbox") is running there',
    );
    expect(unreachedServiceHint('https://helpdesk.example.com', 'refused')).toBe(
      'check the URL (https://helpdesk.example.com), and that the service is running there',
    );
    expect(unreachedServiceHint('https://helpdesk.exmaple.com', 'dns')).toBe('check the host name in the URL (helpdesk.exmaple.com)');
    expect(unreachedServiceHint('https://helpdesk.example.com', 'timeout')).toBeUndefined();
  });

  it('names the profile whose saved URL it is', () => {
    expect(unreachedServiceHint('http://127.0.0.1:8642/api/TicketsApi', 'refused', 'prod')).toBe(
      `nothing answers at 127.0.0.1:8642: check profile prod's URL, and that the service (or "tkt sandbox") is running there`,
    );
    expect(unreachedServiceHint('https://helpdesk.example.com/api/x', 'refused', 'prod')).toBe(
      "check profile prod's URL (https://helpdesk.example.com), and that the service is running there",
    );
    expect(unreachedServiceHint('https://helpdesk.exmaple.com/api/x', 'dns', 'prod')).toBe("check the host name in profile prod's URL (helpdesk.exmaple.com)");
  });
});
