// `tkt mcp` as a process: calls in flight are served at once, and answered before it leaves when
// stdin closes (exit 0) or a SIGTERM comes (143). A server in front of the sandbox holds the
// requests (startFrontServer's gate) so that the moments are chosen, not raced.
import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough, Writable } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { frontEnv, holdUntilReleased, requestTo, startFrontServer, ticketById, unusedTickets, useHarness, userId } from '../helpers/sandbox-state.js';
import { BIN, ensureBuilt } from '../helpers/terminal.js';
import type { TestServer } from '../api/server.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { createServer, serve } from '../../src/mcp/server.js';
import { manualClock } from '../helpers/manual-clock.js';
import { inProcessMcp } from './in-process.js';
import { childEnv, connectMcp, rawMcp, textOf } from './mcp-process.js';

const isUpdateLine = (id: number) => (line: string) => line === `POST /api/TicketsApi/update/${id}`;
const isTicketRead = (req: IncomingMessage) => req.method === 'GET' && /^\/api\/TicketsApi\/\d+$/.test(req.url ?? '');

/** A gate that holds ticket reads until `release`; `arrived(n)` resolves once n are held. */
function ticketGate() {
  let held = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    gate: async (req: IncomingMessage) => {
      if (!isTicketRead(req)) return;
      held += 1;
      for (const waiter of waiters.filter((w) => held >= w.count)) waiter.resolve();
      await released;
    },
    arrived: (count: number) => new Promise<void>((resolve) => (held >= count ? resolve() : waiters.push({ count, resolve }))),
    release: () => release(),
  };
}

/** A gate that holds the lookups' fetch (appmetadata: sites, people) until `release`; `arrived` once one is held. */
function lookupsGate() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const gate = async (req: IncomingMessage) => {
    if (req.url !== '/api/TicketsApi/appmetadata') return;
    arrive();
    await released;
  };
  return { gate, arrived, release };
}

describe('tkt mcp as a process', () => {
  let h: Harness;
  let front: TestServer | undefined;
  useHarness({}, (harness) => (h = harness));
  beforeAll(ensureBuilt, 120_000);
  afterEach(async () => {
    await front?.close();
    front = undefined;
  });

  it('serves ten calls at once: all ten reach the service before any is answered', async () => {
    const gate = ticketGate();
    front = await startFrontServer(h, () => false, { gate: gate.gate });
    const mcp = await connectMcp([], { ...frontEnv(h, front), TKT_CONFIG_DIR: h.configDir });
    try {
      const ids = h.sandbox.state.tickets.slice(0, 10).map((t) => t.id);
      const calls = ids.map((id) => mcp.call('get_ticket', { id, comments: 0 }));
      // Served one at a time, the second read would never reach the gate while the first is held.
      await gate.arrived(10);
      gate.release();
      const results = await Promise.all(calls);
      expect(results.map((r) => (r.structuredContent as { ticket: { id: number } }).ticket.id)).toEqual(ids);
      expect(results.every((r) => r.isError !== true)).toBe(true);
    } finally {
      await mcp.close();
    }
  });

  it('runs write calls on one ticket one after another, so both changes stick, and a call on another ticket meanwhile', async () => {
    const lookups = h.sandbox.state.lookups;
    const harbour = lookups.sites.find((s) => s.title === 'Harbour Depot')!.id;
    const high = lookups.priorities.find((p) => p.priority === 'High')!.id;
    const [ticket, other, warmUp] = unusedTickets(h, 3, (t) => t.siteId !== harbour && t.ticketPriorityId !== high && t.assignedUser !== userId(h, 'tech'));
    const readOf = (id: number) => `/api/TicketsApi/${id}`;
    // Ticket reads are held until two of `ticket` came (its calls raced: the bug) or one of each
    // ticket (the second call on `ticket` waits its turn, the call on `other` went ahead).
    const held: string[] = [];
    let heldAtRelease: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const gate = async (req: IncomingMessage) => {
      if (!isTicketRead(req) || req.url === readOf(warmUp!.id)) return;
      held.push(req.url!);
      const reads = held.filter((url) => url === readOf(ticket!.id)).length;
      if (heldAtRelease.length === 0 && (reads >= 2 || (reads === 1 && held.includes(readOf(other!.id))))) {
        heldAtRelease = [...held];
        release();
      }
      await released;
    };
    front = await startFrontServer(h, () => false, { gate });
    const mcp = await connectMcp(['--write'], { ...frontEnv(h, front), TKT_CONFIG_DIR: h.configDir });
    try {
      const due = '2031-05-01T10:00:00.000Z';
      const update = { site: 'Harbour Depot', priority: 'High', due };
      // With the names looked up already, each call reads its ticket first: the race is as close as it gets.
      await mcp.call('assign_ticket', { id: warmUp!.id, user: 'tech', dry_run: true });
      await mcp.call('update_ticket', { id: warmUp!.id, ...update, dry_run: true });
      const results = await Promise.all([
        mcp.call('assign_ticket', { id: ticket!.id, user: 'tech' }),
        // A priority with a due date is two updates and a read: the assignment must not come between.
        // Its ID as a string of digits, as a model may send it: the same ticket, the same turn.
        mcp.call('update_ticket', { id: String(ticket!.id), ...update }),
        // The same call on another ticket, sent after: its read comes after the one above would.
        mcp.call('update_ticket', { id: other!.id, ...update }),
      ]);
      for (const result of results) expect(result.isError, textOf(result)).toBeFalsy();
      expect(heldAtRelease.toSorted()).toEqual([readOf(ticket!.id), readOf(other!.id)].toSorted());
      expect(ticketById(h, ticket!.id)).toMatchObject({ assignedUser: userId(h, 'tech'), siteId: harbour, ticketPriorityId: high });
      expect(new Date(ticketById(h, ticket!.id).dueDate!).toISOString()).toBe(due);
      expect(ticketById(h, other!.id)).toMatchObject({ siteId: harbour, ticketPriorityId: high });
    } finally {
      await mcp.close();
    }
  });

  it('answers the call in flight when stdin closes, then exits 0', async () => {
    const gate = ticketGate();
    front = await startFrontServer(h, () => false, { gate: gate.gate });
    const mcp = await rawMcp([], { ...frontEnv(h, front), TKT_CONFIG_DIR: h.configDir });
    const id = h.sandbox.state.tickets[0]!.id;
    mcp.send({ id: 1, method: 'tools/call', params: { name: 'get_ticket', arguments: { id } } });
    await gate.arrived(1);
    mcp.child.stdin.end();
    gate.release();
    const response = await mcp.response(1);
    expect((response.result as { structuredContent: { ticket: { id: number } } }).structuredContent.ticket.id).toBe(id);
    const exit = await mcp.exit;
    expect(exit.code).toBe(0);
    expect(exit.stderr).toBe('');
  });

  it('answers the call in flight at SIGTERM, then exits 143', async () => {
    const gate = ticketGate();
    front = await startFrontServer(h, () => false, { gate: gate.gate });
    const mcp = await rawMcp([], { ...frontEnv(h, front), TKT_CONFIG_DIR: h.configDir });
    const id = h.sandbox.state.tickets[1]!.id;
    mcp.send({ id: 7, method: 'tools/call', params: { name: 'get_ticket', arguments: { id } } });
    await gate.arrived(1);
    mcp.child.kill('SIGTERM');
    gate.release();
    const response = await mcp.response(7);
    expect(JSON.stringify(response)).toContain(`"id":${id}`);
    const exit = await mcp.exit;
    expect(exit.code).toBe(143);
  });

  /** The text of a tools/call response, and whether it is an error result. */
  const resultOf = (response: Record<string, unknown>) => {
    const result = response.result as { isError?: boolean; content: { text: string }[] };
    return { isError: result.isError === true, text: result.content.map((part) => part.text).join('\n') };
  };

  it('at SIGTERM, a write whose read was in flight sends nothing more and says interrupted; a call that comes after starts no request', async () => {
    const gate = ticketGate();
    const seen: string[] = [];
    const gateAndSee = (req: IncomingMessage) => (seen.push(`${req.method} ${req.url}`), gate.gate(req));
    front = await startFrontServer(h, () => false, { gate: gateAndSee });
    const mcp = await inProcessMcp(h, ['list_tickets', 'update_ticket'], frontEnv(h, front));
    const [ticket] = unusedTickets(h, 1);
    const before = { ...ticketById(h, ticket!.id) };
    mcp.send({ id: 1, method: 'tools/call', params: { name: 'update_ticket', arguments: { id: ticket!.id, priority: 'High' } } });
    await gate.arrived(1);
    mcp.stop();
    const requestsAtStop = seen.length;
    mcp.send({ id: 2, method: 'tools/call', params: { name: 'list_tickets', arguments: { limit: 1 } } });
    const late = resultOf(await mcp.response(2));
    expect(late).toEqual({ isError: true, text: 'error: interrupted' });
    gate.release();
    const write = resultOf(await mcp.response(1));
    expect(write.isError).toBe(true);
    expect(write.text).toBe(`error: interrupted before POST /api/TicketsApi/update/${ticket!.id} was sent`);
    await expect(mcp.served).rejects.toThrow('interrupted');
    expect(seen.length).toBe(requestsAtStop);
    expect(seen.filter(isUpdateLine(ticket!.id))).toEqual([]);
    expect(ticketById(h, ticket!.id)).toEqual(before);
  });

  it('a call the client cancels (as the SDK does on its own timeout) sends no request after the cancel, and the server still ends when stdin closes', async () => {
    const gate = ticketGate();
    const seen: string[] = [];
    const gateAndSee = (req: IncomingMessage) => (seen.push(`${req.method} ${req.url}`), gate.gate(req));
    front = await startFrontServer(h, () => false, { gate: gateAndSee });
    const mcp = await inProcessMcp(h, ['update_ticket'], frontEnv(h, front));
    const [ticket] = unusedTickets(h, 1);
    const before = { ...ticketById(h, ticket!.id) };
    mcp.send({ id: 1, method: 'tools/call', params: { name: 'update_ticket', arguments: { id: ticket!.id, priority: 'High' } } });
    await gate.arrived(1);
    mcp.send({ method: 'notifications/cancelled', params: { requestId: 1, reason: 'timed out' } });
    // Answered after the cancel was read: lines are read in order.
    mcp.send({ id: 2, method: 'ping' });
    await mcp.response(2);
    gate.release();
    mcp.endInput();
    // The cancelled call gets no answer (the protocol says so); the server waits for it, then ends.
    await mcp.served;
    expect(seen.filter(isUpdateLine(ticket!.id))).toEqual([]);
    expect(ticketById(h, ticket!.id)).toEqual(before);
  });

  it('a read the client cancels is given up at once: its request is aborted, and the server ends when stdin closes without waiting for it', async () => {
    // A service that never answers the read: only the abort can end it before --timeout.
    let closed!: () => void;
    const requestClosed = new Promise<void>((resolve) => (closed = resolve));
    const gate = ticketGate();
    const hold = async (req: IncomingMessage, res: ServerResponse) => {
      if (isTicketRead(req)) res.on('close', closed);
      await gate.gate(req);
    };
    front = await startFrontServer(h, () => false, { gate: hold });
    // A --timeout far beyond the test's: the request ends only if it is aborted.
    const mcp = await inProcessMcp(h, ['get_ticket'], frontEnv(h, front), { globals: { timeout: 3600 } });
    mcp.send({ id: 1, method: 'tools/call', params: { name: 'get_ticket', arguments: { id: 1001 } } });
    await gate.arrived(1);
    mcp.send({ method: 'notifications/cancelled', params: { requestId: 1, reason: 'user' } });
    await requestClosed;
    mcp.endInput();
    await mcp.served;
    gate.release();
  });

  it('a read the client cancels while it waits to try again (the service said 503) stops waiting at once', async () => {
    const seen: string[] = [];
    front = await startFrontServer(h, (req, res) => {
      if (!isTicketRead(req)) return false;
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(503, { 'retry-after': '5' }).end();
      return true;
    });
    // A clock that moves only when told: here never, so that only the cancel can end the wait.
    const clock = manualClock(Date.now());
    const mcp = await inProcessMcp(h, ['get_ticket'], frontEnv(h, front), { clock });
    mcp.send({ id: 1, method: 'tools/call', params: { name: 'get_ticket', arguments: { id: 1001 } } });
    expect(await clock.nextSleep()).toBe(5000);
    mcp.send({ method: 'notifications/cancelled', params: { requestId: 1, reason: 'user' } });
    mcp.endInput();
    // The server ends once the cancelled call is done: it neither waits on nor tries again.
    await mcp.served;
    expect(seen).toEqual(['GET /api/TicketsApi/1001']);
  });

  it('a lookup fetch two calls share goes on for the one not cancelled when the other, which started it, is', async () => {
    // The lookups' fetches are held until the first call is cancelled.
    const held = lookupsGate();
    front = await startFrontServer(h, () => false, { gate: held.gate });
    const mcp = await inProcessMcp(h, ['lookups'], frontEnv(h, front));
    mcp.send({ id: 1, method: 'tools/call', params: { name: 'lookups', arguments: { kind: 'site' } } });
    await held.arrived;
    mcp.send({ id: 2, method: 'tools/call', params: { name: 'lookups', arguments: { kind: 'site' } } });
    // Within this turn the second call waits on the first one's fetch: nothing it does before waits for I/O.
    await new Promise((resolve) => setImmediate(resolve));
    mcp.send({ method: 'notifications/cancelled', params: { requestId: 1, reason: 'user' } });
    held.release();
    const second = (await mcp.response(2)).result as { isError?: boolean; content: { text: string }[] };
    expect(second.isError, second.content[0]?.text).toBeFalsy();
    expect(second.content[0]?.text).toContain('Harbour Depot');
    mcp.endInput();
    await mcp.served;
  });

  it('a call cancelled while it waits on the lookup fetch another call started is done at once; the fetch goes on for the other', async () => {
    const held = lookupsGate();
    front = await startFrontServer(h, () => false, { gate: held.gate });
    const run = await h.context({ env: frontEnv(h, front) });
    // Through createServer, which says when a cancelled call is done: the protocol answers none.
    let cancelledDone!: (id: RequestId) => void;
    const done = new Promise<RequestId>((resolve) => (cancelledDone = resolve));
    const server = createServer(run.ctx, ['lookups'], { cancelledEnded: cancelledDone });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'tkt-test', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const first = client.callTool({ name: 'lookups', arguments: { kind: 'site' } });
      await held.arrived;
      const cancel = new AbortController();
      const second = client.callTool({ name: 'lookups', arguments: { kind: 'site' } }, undefined, { signal: cancel.signal });
      second.catch(() => {});
      // Within this turn the second call waits on the first one's fetch: nothing it does before waits for I/O.
      await new Promise((resolve) => setImmediate(resolve));
      cancel.abort();
      // The fetch is still held: only a call that stops waiting for it is done now.
      await done;
      held.release();
      const result = (await first) as { isError?: boolean; content: { text: string }[] };
      expect(result.isError, result.content[0]?.text).toBeFalsy();
      expect(result.content[0]?.text).toContain('Harbour Depot');
    } finally {
      held.release();
      await client.close();
    }
  });

  it('a read waits for a write to its ticket in flight, one whose call was cancelled included; a list for every write in flight', async () => {
    const [ticket, other] = unusedTickets(h, 2, (t) => t.ticketPriorityId !== h.sandbox.state.lookups.priorities.find((p) => p.priority === 'High')!.id);
    const update = `POST /api/TicketsApi/update/${ticket!.id}`;
    // The update is held until the read of another ticket, sent after the reads that must wait, has come.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let [updateCame, answered] = [false, false];
    let arrived!: () => void;
    const held = new Promise<void>((resolve) => (arrived = resolve));
    const readDuringWrite: string[] = [];
    const gate = async (req: IncomingMessage, res: ServerResponse) => {
      const line = `${req.method} ${req.url}`;
      if (line === update) {
        updateCame = true;
        arrived();
        res.on('finish', () => (answered = true));
        await released;
      } else if (line === `GET /api/TicketsApi/${other!.id}`) release();
      // Tickets read (the lookups, names cached or not, are no ticket's state) between the update's arrival and its answer.
      else if (!/metadata/i.test(line) && updateCame && !answered) readDuringWrite.push(line);
    };
    front = await startFrontServer(h, () => false, { gate });
    const mcp = await inProcessMcp(h, ['get_ticket', 'list_tickets', 'update_ticket'], frontEnv(h, front));
    mcp.send({ id: 1, method: 'tools/call', params: { name: 'update_ticket', arguments: { id: ticket!.id, priority: 'High' } } });
    await held;
    mcp.send({ method: 'notifications/cancelled', params: { requestId: 1, reason: 'timed out' } });
    mcp.send({ id: 2, method: 'tools/call', params: { name: 'get_ticket', arguments: { id: ticket!.id, comments: 0 } } });
    mcp.send({ id: 3, method: 'tools/call', params: { name: 'list_tickets', arguments: { limit: 1 } } });
    mcp.send({ id: 4, method: 'tools/call', params: { name: 'get_ticket', arguments: { id: other!.id, comments: 0 } } });
    const read = (await mcp.response(2)).result as { structuredContent: { ticket: { priority: string } } };
    expect(read.structuredContent.ticket.priority).toBe('High');
    expect((await mcp.response(3)).result).toMatchObject({ structuredContent: { tickets: [{}] } });
    await mcp.response(4);
    expect(readDuringWrite).toEqual([]);
    expect(ticketById(h, ticket!.id).ticketPriorityId).toBe(h.sandbox.state.lookups.priorities.find((p) => p.priority === 'High')!.id);
    mcp.endInput();
    await mcp.served;
  });

  it('answers written while stdout pushes back wait their turn: one waits for it to drain, not one listener each', async () => {
    const mcp = await inProcessMcp(h, ['lookups'], { TKT_URL: h.sandbox.url });
    // A reader that has stopped reading; twenty calls answered at once, without a request (a bad kind).
    mcp.output.pause();
    const ids = Array.from({ length: 20 }, (_, index) => index + 1);
    for (const id of ids) mcp.send({ id, method: 'tools/call', params: { name: 'lookups', arguments: { kind: 'planet' } } });
    // Every answer is made within these turns of the event loop: no request, no timer.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(mcp.output.listenerCount('drain')).toBeLessThanOrEqual(1);
    mcp.output.resume();
    for (const id of ids) expect(resultOf(await mcp.response(id)).isError).toBe(true);
    mcp.endInput();
    await mcp.served;
  });

  it('serves eighty calls at once with one client: no listener piles up on a shared signal', async () => {
    const mcp = await connectMcp([], { TKT_CONFIG_DIR: h.configDir, TKT_URL: h.sandbox.url });
    try {
      const results = await Promise.all(Array.from({ length: 80 }, () => mcp.call('my_queue')));
      expect(results.filter((result) => result.isError === true)).toEqual([]);
      expect(mcp.stderr()).toBe('');
    } finally {
      await mcp.close();
    }
  });

  it('answers a line that is not JSON, or not a JSON-RPC message, with the JSON-RPC error, and goes on serving', async () => {
    const mcp = await rawMcp([], { TKT_CONFIG_DIR: h.configDir, TKT_URL: h.sandbox.url });
    mcp.child.stdin.write('{bad json\n');
    expect(await mcp.response(null)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    mcp.send({ id: 1, method: 'ping' });
    expect(await mcp.response(1)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    mcp.child.stdin.write('{"jsonrpc":"2.0","id":2,"method":7}\n');
    mcp.send({ id: 3, method: 'ping' });
    await mcp.response(3);
    expect(await mcp.response(null)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } });
    mcp.child.stdin.end('{bad json at the end\n');
    const exit = await mcp.exit;
    expect(exit.code).toBe(0);
    expect(exit.stderr).toBe('');
    expect(await mcp.response(null)).toMatchObject({ error: { code: -32700 } });
  });

  it('answers each request of a batch (which MCP 2025-06-18 dropped) with an invalid request to its ID, says so on stderr, and goes on serving', async () => {
    // The whole batch got one -32600 with the null ID: the client waited for its requests' answers.
    const mcp = await rawMcp([], { TKT_CONFIG_DIR: h.configDir, TKT_URL: h.sandbox.url });
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/progress', params: {} },
      { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'get_ticket', arguments: { id: 1001 } } },
      7,
    ];
    mcp.child.stdin.write(`${JSON.stringify(batch)}\n`);
    const refused = (id: number | string | null) => ({
      jsonrpc: '2.0',
      id,
      error: { code: -32600, message: 'batches are not taken (MCP 2025-06-18 has none): send each message on a line of its own' },
    });
    expect(await mcp.response(1)).toEqual(refused(1));
    expect(await mcp.response('b')).toEqual(refused('b'));
    // What is no message at all is answered as JSON-RPC answers it, with the null ID; an empty batch too.
    expect(await mcp.response(null)).toEqual(refused(null));
    mcp.child.stdin.write('[]\n');
    expect(await mcp.response(null)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } });
    mcp.send({ id: 2, method: 'ping' });
    expect(await mcp.response(2)).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    mcp.child.stdin.end();
    const exit = await mcp.exit;
    expect(exit.code).toBe(0);
    expect(exit.stderr).toBe('tkt mcp: refused a batch of 4 messages (their IDs: 1, "b"): MCP 2025-06-18 has no batches\n');
  });

  it('refuses a line over 10 MiB as an invalid request to its ID, says so on stderr, and goes on serving; 9 MB is read', async () => {
    const mcp = await rawMcp([], { TKT_CONFIG_DIR: h.configDir, TKT_URL: h.sandbox.url });
    const call = (id: number, size: number) => ({ id, method: 'tools/call', params: { name: 'no_such_tool', arguments: { search: 'S'.repeat(size) } } });
    const tooLarge = (id: number | string | null) => ({
      jsonrpc: '2.0',
      id,
      error: { code: -32600, message: expect.stringMatching(/^message too large: 11\d{6} bytes, at most 10485759 a line$/) as unknown },
    });
    // The ID first, as most clients write it; last, as the SDK's client does; none to be found.
    mcp.send(call(1, 11_000_000));
    expect(await mcp.response(1)).toEqual(tooLarge(1));
    const { id: _id, ...idLast } = call(2, 11_000_000);
    mcp.child.stdin.write(`${JSON.stringify({ ...idLast, jsonrpc: '2.0', id: 'last' })}\n`);
    expect(await mcp.response('last')).toEqual(tooLarge('last'));
    mcp.child.stdin.write(`${'S'.repeat(11_000_000)}\n`);
    expect(await mcp.response(null)).toEqual(tooLarge(null));
    // A line within the limit is read whole: the unknown tool is named.
    mcp.send(call(3, 9_000_000));
    expect(await mcp.response(3)).toMatchObject({ id: 3, error: { code: -32602, message: expect.stringMatching(/^unknown tool "no_such_tool"/) as unknown } });
    mcp.send({ id: 4, method: 'ping' });
    expect(await mcp.response(4)).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
    mcp.child.stdin.end();
    const exit = await mcp.exit;
    expect(exit.code).toBe(0);
    expect(exit.stderr.split('\n')).toEqual([
      expect.stringMatching(/^tkt mcp: refused a message of 11\d{6} bytes, at most 10485759 a line \(its ID: 1\)$/),
      expect.stringMatching(/\(its ID: "last"\)$/),
      expect.stringMatching(/\(its ID: not found\)$/),
      '',
    ]);
  });

  it('ends only once every refused line is answered, two without an ID among them', async () => {
    const run = await h.context({ env: { TKT_URL: h.sandbox.url } });
    const input = new PassThrough();
    // A reader that takes each answer only when the test lets it: the answers wait their turn.
    const written: string[] = [];
    const taking: (() => void)[] = [];
    let wrote: (() => void) | undefined;
    const output = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, take) {
        written.push(chunk.toString());
        taking.push(take);
        wrote?.();
      },
    });
    const answers = (count: number) => new Promise<void>((resolve) => (wrote = () => written.length >= count && resolve()));
    let ended = false;
    const served = serve({ ...run.ctx, io: { ...run.ctx.io, stdin: input, stdout: output } }, ['lookups']).then(() => void (ended = true));
    // Answered, the ping says the server is connected: what it sends from then on is counted.
    const pinged = answers(1);
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
    await pinged;
    const first = answers(2);
    taking.shift()!();
    // Both lines in one chunk: both are refused before the first answer is taken.
    const line = `${'S'.repeat(11_000_000)}\n`;
    input.end(line + line);
    await first;
    const second = answers(3);
    taking.shift()!();
    await second;
    // The server has every turn it needs to end, were it to end now; the second answer is not taken yet.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toBe(false);
    taking.shift()!();
    await served;
    expect(written.map((answer) => (JSON.parse(answer) as { id: unknown }).id)).toEqual([1, null, null]);
  });

  it('answers a malformed tools/call with invalid params (-32602) saying what is wrong, not an internal error, and goes on serving', async () => {
    const mcp = await rawMcp([], { TKT_CONFIG_DIR: h.configDir, TKT_URL: h.sandbox.url });
    mcp.send({ id: 8, method: 'tools/call', params: {} });
    expect(await mcp.response(8)).toEqual({
      jsonrpc: '2.0',
      id: 8,
      error: { code: -32602, message: 'invalid tools/call request: Invalid input: expected string, received undefined at params.name' },
    });
    mcp.send({ id: 9, method: 'tools/call', params: { name: 'get_ticket', arguments: 'x' } });
    expect(await mcp.response(9)).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32602, message: 'invalid tools/call request: Invalid input: expected record, received string at params.arguments' },
    });
    // Other methods are as the SDK answers them: a known one served, an unknown one not found.
    mcp.send({ id: 10, method: 'ping' });
    expect(await mcp.response(10)).toEqual({ jsonrpc: '2.0', id: 10, result: {} });
    mcp.send({ id: 11, method: 'no/such/method' });
    expect(await mcp.response(11)).toEqual({ jsonrpc: '2.0', id: 11, error: { code: -32601, message: 'Method not found' } });
    mcp.send({ id: 12, method: 'tools/call', params: { name: 'get_ticket', arguments: { id: 1001, comments: 0 } } });
    expect(await mcp.response(12)).toMatchObject({ id: 12, result: { structuredContent: { ticket: { id: 1001 } } } });
    mcp.child.stdin.end();
    expect((await mcp.exit).code).toBe(0);
  });

  it('ends by itself once its stdout is gone and answers fail to be written, stdin left open: exit 0, nothing on stderr', async () => {
    const mcp = await rawMcp([], { TKT_CONFIG_DIR: h.configDir, TKT_URL: h.sandbox.url });
    // The assistant's reader goes away; it still writes (or crashed with its pipe to our stdin held open).
    mcp.child.stdout.destroy();
    for (const id of [1, 2, 3]) mcp.send({ id, method: 'tools/call', params: { name: 'list_tickets', arguments: {} } });
    expect(await mcp.exit).toEqual({ code: 0, signal: null, stderr: '' });
  });

  it('once its stdout is gone, a read in flight is given up and the server ends without its answer', async () => {
    // A service that never answers the read until the end of the test: only giving it up ends the server.
    const held = holdUntilReleased(isTicketRead);
    front = await startFrontServer(h, () => false, { gate: held.gate });
    const mcp = await rawMcp(['--timeout', '3600'], { ...frontEnv(h, front), TKT_CONFIG_DIR: h.configDir });
    try {
      mcp.send({ id: 1, method: 'tools/call', params: { name: 'get_ticket', arguments: { id: h.sandbox.state.tickets[0]!.id } } });
      await held.arrived;
      mcp.child.stdout.destroy();
      // Its answer is the one that fails to be written.
      mcp.send({ id: 2, method: 'ping' });
      expect(await mcp.exit).toEqual({ code: 0, signal: null, stderr: '' });
    } finally {
      held.release();
    }
  });

  it('at the first SIGTERM once its stdout is gone, waits for the change in flight, then exits 143', async () => {
    const high = h.sandbox.state.lookups.priorities.find((p) => p.priority === 'High')!.id;
    const [ticket] = unusedTickets(h, 1, (t) => t.ticketPriorityId !== high);
    const held = holdUntilReleased(requestTo('POST', `/api/TicketsApi/update/${ticket!.id}`));
    front = await startFrontServer(h, () => false, { gate: held.gate });
    const mcp = await rawMcp(['--write'], { ...frontEnv(h, front), TKT_CONFIG_DIR: h.configDir });
    mcp.send({ id: 1, method: 'tools/call', params: { name: 'update_ticket', arguments: { id: ticket!.id, priority: 'High' } } });
    await held.arrived;
    mcp.child.stdout.destroy();
    for (const id of [2, 3, 4]) mcp.send({ id, method: 'tools/call', params: { name: 'list_tickets', arguments: {} } });
    mcp.child.kill('SIGTERM');
    held.release();
    const exit = await mcp.exit;
    expect(exit.code).toBe(143);
    expect(exit.stderr).toMatch(/^error: stopped by SIGTERM\n$/m);
    expect(ticketById(h, ticket!.id).ticketPriorityId).toBe(high);
  });

  it('reads a last message that has no newline before stdin ends, and answers it before it exits', async () => {
    // It was dropped without a word: the client waited for its answer.
    const mcp = await rawMcp([], { TKT_CONFIG_DIR: h.configDir, TKT_URL: h.sandbox.url });
    mcp.child.stdin.end(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'get_ticket', arguments: { id: 1001, comments: 0 } } }));
    expect(await mcp.response(5)).toMatchObject({ id: 5, result: { structuredContent: { ticket: { id: 1001 } } } });
    expect(await mcp.exit).toEqual({ code: 0, signal: null, stderr: '' });
  });

  it('exits 0 at once when stdin closes with nothing in flight', async () => {
    const mcp = await rawMcp([], { TKT_CONFIG_DIR: h.configDir, TKT_URL: h.sandbox.url });
    mcp.child.stdin.end();
    expect((await mcp.exit).code).toBe(0);
  });

  it('refuses a profile nothing created at start, as every command does: exit 2 listing the profiles, before serving', async () => {
    for (const [args, env, source] of [
      [['--profile', 'typo', 'mcp'], {}, '--profile'],
      [['mcp'], { TKT_PROFILE: 'typo' }, 'TKT_PROFILE'],
    ] as const) {
      // As an assistant starts it: stdin left open, the handshake sent at once.
      const child = spawn(process.execPath, [BIN, ...args], { env: childEnv({ TKT_CONFIG_DIR: h.configDir, ...env }), stdio: ['pipe', 'pipe', 'pipe'] });
      let [stdout, stderr] = ['', ''];
      child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
      const served = new Promise<'served'>((resolve) => child.stdout.setEncoding('utf8').on('data', (text: string) => ((stdout += text), resolve('served'))));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
      );
      const outcome = await Promise.race([exited, served]);
      if (outcome === 'served') child.kill();
      expect(outcome, stdout).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toContain(`error: no profile named "typo" (${source})\n`);
      expect(stderr).toContain('profiles: default');
    }
  });

  it('refuses --json, -q and --query at start, exit 2: its output is the protocol', async () => {
    // They were taken and ignored.
    for (const [args, flag] of [
      [['--json'], '--json'],
      [['-q'], '-q'],
      [['--query', 'x'], '--query'],
    ] as const) {
      const run = await h.cli(['mcp', ...args]);
      expect(run.code, flag).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(new RegExp(`^error: tkt mcp's output is the protocol \\(JSON-RPC for an assistant\\): it has no ${flag} output\nhint: `));
    }
  });

  it('refuses an unknown --tools name at start: exit 2 listing the valid ones', async () => {
    const run = await h.cli(['mcp', '--tools', 'list_tickets,nosuch']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error: unknown tool "nosuch"');
    expect(run.stderr).toContain('valid tools: list_tickets, get_ticket, my_queue, lookups, create_ticket');
    expect(run.stdout).toBe('');
    const deleting = await h.cli(['mcp', '--allow-delete']);
    expect(deleting.code).toBe(2);
    expect(deleting.stderr).toContain('error: --allow-delete needs --write');
    const notAllowed = await h.cli(['mcp', '--write', '--tools', 'delete_ticket']);
    expect(notAllowed.stderr).toContain('error: tool delete_ticket needs --write --allow-delete');
  });
});
