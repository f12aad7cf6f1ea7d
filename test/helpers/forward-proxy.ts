// A forward proxy on loopback for tests of HTTP_PROXY: it tunnels (CONNECT) to the target and
// records what it was asked.
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { listenOnLoopback } from './loopback.js';

export interface ForwardProxy {
  url: string;
  /** One line per request the proxy received, e.g. `CONNECT 127.0.0.1:PORT`. */
  seen: string[];
  close(): Promise<void>;
}

/**
 * A plain HTTP forward proxy that tunnels: undici's ProxyAgent (proxyTunnel
 * defaults to true) sends CONNECT even for an http:// target, never an
 * absolute-form `GET http://...`. Anything but CONNECT is recorded and refused,
 * so a client that stopped tunnelling would fail here loudly.
 */
export async function startForwardProxy(options: { connectTo?: string } = {}): Promise<ForwardProxy> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(405, { 'content-type': 'text/plain' }).end('this test proxy only tunnels (CONNECT)');
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    // `connectTo` (host:port on loopback) stands in for every host: a test reaches a "remote"
    // name such as helpdesk.example.test without any traffic leaving the machine.
    const target = new URL(`http://${options.connectTo ?? req.url}`);
    const upstream = connect(Number(target.port), target.hostname, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    // Tunnelled sockets leave the server's bookkeeping, so they are closed by hand.
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  return { ...(await listenOnLoopback(server, sockets)), seen };
}
