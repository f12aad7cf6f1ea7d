// A tiny real HTTP server on 127.0.0.1:0 that records what it was sent.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { listenOnLoopback } from '../helpers/loopback.js';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface TestServer {
  /** http://127.0.0.1:PORT, no trailing slash. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** `index` counts requests from 0, so a handler can fail the first and answer the second. */
export type Handler = (req: IncomingMessage, res: ServerResponse, index: number) => void;

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const index = requests.length;
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    handler(req, res, index);
  });
  return { ...(await listenOnLoopback(server)), requests };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  res.writeHead(status, { 'content-type': contentType });
  res.end(JSON.stringify(body));
}
