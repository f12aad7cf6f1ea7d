// `tkt mcp` as an assistant runs it: the built CLI as a child process, spoken to through the
// official SDK's Client over stdio, or with raw JSON-RPC lines when a test needs to close stdin
// or send a signal at a chosen moment.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BIN } from '../helpers/terminal.js';

/** The test process's environment, without what would reach past loopback or colour output. */
export function childEnv(env: Record<string, string>): Record<string, string> {
  const { NODE_EXTRA_CA_CERTS: _ca, TKT_TOKEN: _token, TKT_URL: _url, TKT_PROFILE: _profile, ...inherited } = process.env;
  return { ...(inherited as Record<string, string>), NO_COLOR: '1', ...env };
}

export interface McpSession {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Every message the server sent, as JSON text. */
  received(): string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** `bin`: another install's bin/tkt.js (test/startup/upgrade-under-run.test.ts). */
export async function connectMcp(args: string[], env: Record<string, string>, bin = BIN): Promise<McpSession> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', ...args], env: childEnv(env), stderr: 'pipe' });
  let stderr = '';
  (transport.stderr as Readable | null)?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const client = new Client({ name: 'tkt-test', version: '1.0.0' });
  let received = '';
  await client.connect(transport);
  const onmessage = transport.onmessage;
  transport.onmessage = (message) => {
    received += `${JSON.stringify(message)}\n`;
    onmessage?.(message);
  };
  return {
    client,
    stderr: () => stderr,
    received: () => received,
    call: async (name, toolArgs = {}) => (await client.callTool({ name, arguments: toolArgs })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The text of a tool result. */
export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** JSON-RPC lines written to a server's input and read from its output. */
export interface LineClient {
  send(message: Record<string, unknown>): void;
  /** Resolves with the next response to request `id` (null: to a message whose ID could not be read). */
  response(id: number | string | null): Promise<Record<string, unknown>>;
}

/** Speaks to a server through `input` and `output`, and initializes it, ready for tools/call. */
export async function lineClient(input: Writable, output: Readable): Promise<LineClient> {
  const responses = new Map<number | string | null, Record<string, unknown>>();
  const waiting = new Map<number | string | null, (message: Record<string, unknown>) => void>();
  let buffer = '';
  output.setEncoding('utf8').on('data', (text: string) => {
    buffer += text;
    for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
      const message = JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>;
      buffer = buffer.slice(newline + 1);
      const id = message.id as number | string | null;
      const waiter = waiting.get(id);
      waiting.delete(id);
      if (waiter === undefined) responses.set(id, message);
      else waiter(message);
    }
  });
  const send = (message: Record<string, unknown>) => input.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  // Taken once: a second message of the same ID (null, say) is the next one.
  const response = (id: number | string | null) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const received = responses.get(id);
      if (received === undefined) return waiting.set(id, resolve);
      responses.delete(id);
      resolve(received);
    });
  send({ id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  await response(0);
  send({ method: 'notifications/initialized' });
  return { send, response };
}

export interface RawMcp extends LineClient {
  child: ChildProcessWithoutNullStreams;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** `tkt mcp` spoken to line by line, initialized and ready for tools/call. */
export async function rawMcp(args: string[], env: Record<string, string>): Promise<RawMcp> {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], { env: childEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, exit, ...(await lineClient(child.stdin, child.stdout)) };
}
