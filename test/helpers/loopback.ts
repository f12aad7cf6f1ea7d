// A test's HTTP server listening on 127.0.0.1 at a free port: its URL, and a close that ends
// every connection at once (and the sockets the server no longer tracks, such as tunnels).
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export async function listenOnLoopback(server: Server, untracked: ReadonlySet<Socket> = new Set()): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of untracked) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
