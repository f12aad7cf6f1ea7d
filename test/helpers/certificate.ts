// A self-signed certificate made by openssl for a test's TLS server on loopback.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Certificate {
  key: Buffer;
  cert: Buffer;
  /** The certificate's PEM file, for NODE_EXTRA_CA_CERTS (it is its own CA). */
  certFile: string;
  /** A folder beside it, for a child run's TKT_CONFIG_DIR. */
  dir: string;
  remove(): void;
}

/** A certificate for `names` (subjectAltName syntax, e.g. `DNS:localhost,IP:127.0.0.1`), valid a day. */
export function selfSignedCertificate(names = 'DNS:localhost,IP:127.0.0.1'): Certificate {
  const dir = mkdtempSync(join(tmpdir(), 'tkt-cert-'));
  const [keyFile, certFile] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=localhost',
      '-addext',
      `subjectAltName=${names}`,
      '-days',
      '1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile), cert: readFileSync(certFile), certFile, dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
