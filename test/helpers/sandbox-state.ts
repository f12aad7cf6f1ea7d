// Setup and look-ups the command tests share: one harness per test file, a temp dir, and
// questions about the sandbox's state (users, tickets, route counts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { SandboxTicket } from '../../src/sandbox/index.js';
import { startServer, type TestServer } from '../api/server.js';
import { createHarness, loginAs, type Harness, type HarnessOptions } from './harness.js';
import { processSignals } from '../cli/fake-process.js';

/**
 * One harness for the whole test file, handed to `bind` once it runs. Each of `profiles` is a
 * demo login saved as a profile of the same name (e.g. `--profile viewer` for permission tests).
 */
export function useHarness(options: HarnessOptions & { profiles?: string[] }, bind: (harness: Harness) => void): void {
  let harness: Harness | undefined;
  beforeAll(async () => {
    const { profiles = [], ...harnessOptions } = options;
    harness = await createHarness(harnessOptions);
    for (const profile of profiles) await loginAs(harness.sandbox, harness.configDir, profile, profile);
    bind(harness);
  });
  // A test whose scripted answers were not all asked for fails, naming them.
  afterEach(() => harness?.assertPromptsDone());
  afterAll(async () => {
    await harness?.close();
  });
}

/** A temp dir for the test file's own files, removed afterwards. */
export function useTempDir(prefix: string, bind: (path: string) => void): void {
  let path: string | undefined;
  beforeAll(async () => {
    path = await mkdtemp(join(tmpdir(), prefix));
    bind(path);
  });
  afterAll(async () => {
    if (path !== undefined) await rm(path, { recursive: true, force: true });
  });
}

export function userId(h: Harness, username: string): string {
  const user = h.sandbox.state.users.find((u) => u.username === username);
  if (user === undefined) throw new Error(`no user ${username}`);
  return user.id;
}

export function ticketById(h: Harness, id: number): SandboxTicket {
  const found = h.sandbox.state.tickets.find((t) => t.id === id);
  if (found === undefined) throw new Error(`no ticket ${id}`);
  return found;
}

/** Requests the sandbox has answered on a route key such as "POST /api/TicketsApi/close/{id}". */
export function routeCount(h: Harness, route: string): number {
  return h.sandbox.stats.byRoute[route] ?? 0;
}

// Per harness, so each test file gets tickets that none of its other tests has changed.
const usedTickets = new WeakMap<Harness, Set<number>>();

/** `count` live tickets matching `predicate` that no earlier call for this harness returned. */
export function unusedTickets(h: Harness, count: number, predicate: (t: SandboxTicket) => boolean = () => true): SandboxTicket[] {
  let used = usedTickets.get(h);
  if (used === undefined) usedTickets.set(h, (used = new Set()));
  const found = h.sandbox.state.tickets.filter((t) => !t.isDeleted && !used.has(t.id) && predicate(t)).slice(0, count);
  if (found.length < count) throw new Error(`only ${found.length} of ${count} matching tickets left`);
  for (const t of found) used.add(t.id);
  return found;
}

/** `count` unused live tickets that match `predicate` and whose IDs follow on, for a range (`tkt read 1001-1003`). */
export function unusedConsecutiveTickets(h: Harness, count: number, predicate: (t: SandboxTicket) => boolean = () => true): SandboxTicket[] {
  const used = usedTickets.get(h);
  const fits = new Map(h.sandbox.state.tickets.filter((t) => !t.isDeleted && !used?.has(t.id) && predicate(t)).map((t) => [t.id, t]));
  const first = [...fits.keys()].find((id) => Array.from({ length: count }, (_, i) => id + i).every((each) => fits.has(each)));
  if (first === undefined) throw new Error(`no ${count} matching tickets with consecutive IDs left`);
  return unusedTickets(h, count, (t) => t.id >= first && t.id < first + count);
}

export function unusedTicket(h: Harness, predicate?: (t: SandboxTicket) => boolean): SandboxTicket {
  return unusedTickets(h, 1, predicate)[0]!;
}

/** Runs `action` and checks that it sent the sandbox no request at all. */
export async function sendsNothing<T>(h: Harness, action: () => Promise<T>): Promise<T> {
  const before = h.sandbox.stats.requests;
  const result = await action();
  expect(h.sandbox.stats.requests).toBe(before);
  return result;
}

/**
 * A server standing in front of the sandbox, for answers the sandbox never gives (another body
 * shape, a Location header): `answer` handles a request and returns true, or returns false and
 * the request goes on to the sandbox as it came, so lookups still work. Point a context at it
 * with `frontEnv(h, server)`. `holdMs` keeps each request open that long first, so a client's
 * concurrent requests overlap at this server (the in-process sandbox answers each at once).
 * It passes on no X-Total-Count, as a service that sends none, unless `total` is set.
 */
export async function startFrontServer(
  h: Harness,
  answer: (req: IncomingMessage, res: ServerResponse, body: Buffer) => boolean,
  options: { holdMs?: number; gate?: (req: IncomingMessage, res: ServerResponse, body: Buffer) => Promise<void>; total?: boolean } = {},
): Promise<TestServer> {
  return startServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on(
      'end',
      () =>
        void (options.gate?.(req, res, Buffer.concat(chunks)) ?? Promise.resolve()).then(() =>
          setTimeout(() => {
            const body = Buffer.concat(chunks);
            if (answer(req, res, body)) return;
            void forwardToSandbox(h, req, body)
              .then(async (passed) => {
                const total = options.total === true ? passed.headers.get('x-total-count') : null;
                res.writeHead(passed.status, {
                  'content-type': passed.headers.get('content-type') ?? 'application/json',
                  ...(total === null ? {} : { 'x-total-count': total }),
                });
                res.end(Buffer.from(await passed.arrayBuffer()));
              })
              .catch(() => res.writeHead(502).end());
          }, options.holdMs ?? 0),
        ),
    );
  });
}

/**
 * A front server (startFrontServer) whose list answers (POST /api/TicketsApi) carry each item as
 * `reshape` makes it: a service whose list items have fewer members than the sandbox's, or other
 * names. Every other request goes to the sandbox as it came.
 */
export async function startReshapingServer(h: Harness, reshape: (item: Record<string, unknown>) => Record<string, unknown>): Promise<TestServer> {
  return startFrontServer(h, (req, res, body) => {
    if (req.method !== 'POST' || req.url !== '/api/TicketsApi') return false;
    void forwardToSandbox(h, req, body)
      .then(async (passed) => {
        const answer: unknown = await passed.json();
        res.writeHead(passed.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(passed.ok && Array.isArray(answer) ? answer.map((item: Record<string, unknown>) => reshape(item)) : answer));
      })
      .catch(() => res.writeHead(502).end());
    return true;
  });
}

/** A list item with only the members named (startReshapingServer), as a service with leaner items gives it. */
export const keepOnly =
  (...names: string[]) =>
  (item: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(Object.entries(item).filter(([name]) => names.includes(name)));

/** `req` (whose body was `body`) sent on to the sandbox as it came, with its token and content type. */
const forwardToSandbox = (h: Harness, req: IncomingMessage, body: Buffer): Promise<Response> => forwardTo(h.sandbox.url, req, body);

/** `req` (whose body was `body`) sent on to the service at `url` as it came, with its token and content type. */
export function forwardTo(url: string, req: IncomingMessage, body: Buffer): Promise<Response> {
  const headers: Record<string, string> = {};
  for (const name of ['authorization', 'content-type'] as const) {
    const value = req.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  return fetch(`${url}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, body: body.length > 0 ? body : undefined });
}

/** The service's `answer` (forwardTo) written as the front server's answer to `res`. */
export async function passAnswer(res: ServerResponse, answer: Response): Promise<void> {
  res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
  res.end(Buffer.from(await answer.arrayBuffer()));
}

/**
 * A front server's answer (startFrontServer) for a flaky relay: a request `matches` reaches the
 * sandbox, which carries it out, and its answer comes back as 200 with the first half of the
 * sandbox's JSON body, under a Content-Length that matches: truncated JSON, whole as HTTP goes.
 */
export function halvedAnswers(
  h: Harness,
  matches: (req: IncomingMessage, body: Buffer) => boolean,
): (req: IncomingMessage, res: ServerResponse, body: Buffer) => boolean {
  return (req, res, body) => {
    if (!matches(req, body)) return false;
    void forwardToSandbox(h, req, body).then(async (passed) => {
      const whole = Buffer.from(await passed.arrayBuffer());
      const half = whole.subarray(0, Math.floor(whole.length / 2));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(half.length) });
      res.end(half);
    });
    return true;
  };
}

/**
 * A front server's answer (startFrontServer) for a service that answers a create with the new
 * ticket's address alone: a request `matches` reaches the sandbox, which creates the ticket, and
 * its answer comes back with the sandbox's status, no body, and a Location made by `where` from
 * the new ID and the front server's URL (`front.at(url)` once it listens).
 */
export function addressOnlyAnswers(
  h: Harness,
  matches: (req: IncomingMessage, body: Buffer) => boolean,
  where: (id: string, frontUrl: string) => string,
): { answer: (req: IncomingMessage, res: ServerResponse, body: Buffer) => boolean; at(url: string): void } {
  let frontUrl = '';
  const answer = (req: IncomingMessage, res: ServerResponse, body: Buffer): boolean => {
    if (!matches(req, body)) return false;
    void forwardToSandbox(h, req, body).then((created) => {
      const id = String(created.headers.get('location')).split('/').pop()!;
      res.writeHead(created.status, { location: where(id, frontUrl) }).end();
    });
    return true;
  };
  return { answer, at: (url) => void (frontUrl = url) };
}

/**
 * The whole of stderr when a change of ticket `id`, sent as a POST to `url`, was never answered:
 * in doubt, what happened, how to look (src/cmdutil/in-doubt.ts).
 */
export function changeInDoubtStderr(id: number, url: string): RegExp {
  return new RegExp(
    `^error: #${id} in doubt \\(it may have been carried out\\)\n` +
      `  request timed out after [^:]+: POST ${url}\n` +
      `hint: look at it with "tkt show ${id}" before running this again\n$`,
  );
}

/** Environment for a command run as admin against `server`. */
export function frontEnv(h: Harness, server: TestServer): Record<string, string> {
  return { TKT_URL: server.url, TKT_TOKEN: h.sandbox.issueToken('admin') };
}

/** A front server's gate, and what it saw. */
export interface Gate {
  gate: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
}

/**
 * Holds the requests `matches` lets through until `count` are in flight at once, then lets them all
 * go: concurrent clients (CI jobs creating at the same moment) meet at the server together.
 */
export function holdUntilTogether(count: number, matches: (req: IncomingMessage) => boolean): Gate {
  let arrived = 0;
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  return {
    gate: async (req) => {
      if (!matches(req)) return;
      if (++arrived >= count) release();
      await held;
    },
  };
}

/**
 * Holds every request `matches` lets through until `release()`: `arrived` resolves when the first
 * is held, so a test can stop the run while the service has that request.
 */
export function holdUntilReleased(matches: (req: IncomingMessage) => boolean): Gate & { arrived: Promise<void>; release(): void } {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    gate: async (req) => {
      if (!matches(req)) return;
      arrive();
      await released;
    },
    arrived,
    release,
  };
}

/** A request of `method` to exactly `path`, for the gates above. */
export const requestTo =
  (method: string, path: string | RegExp) =>
  (req: Pick<IncomingMessage, 'method' | 'url'>): boolean =>
    req.method === method && (typeof path === 'string' ? req.url === path : path.test(req.url ?? ''));

/**
 * Counts the requests `matches` lets through as they arrive and holds them until `limit` are open
 * at once (or none has come for a while, when the client sends fewer), so the most seen in flight
 * does not depend on how fast a loaded machine runs.
 */
export function countInFlight(limit: number, matches: (req: IncomingMessage) => boolean = () => true): Gate & { max(): number } {
  let inFlight = 0;
  let maxInFlight = 0;
  let release = () => {};
  let idle: NodeJS.Timeout | undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  return {
    gate: async (req, res) => {
      if (!matches(req)) return;
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      res.on('close', () => inFlight--);
      clearTimeout(idle);
      if (inFlight >= limit) release();
      else idle = setTimeout(release, 500);
      await held;
    },
    max: () => maxInFlight,
  };
}

/**
 * Runs `args` (the CLI in-process, as admin unless `env` says otherwise) with the request `held`
 * matches held at a front server; once the service has it, the run gets `signal`, then the
 * service answers it (unless `answered` is false: never). `sent` counts the requests `counted`
 * matches that reached the service; `sentAfterSignal` names every request that reached it after
 * the signal; `exits`, the codes the run asked to exit with at once.
 */
export async function stoppedAt(
  h: Harness,
  args: string[],
  held: ReturnType<typeof requestTo>,
  signal: 'SIGTERM' | 'SIGINT',
  options: {
    answered?: boolean;
    counted?: ReturnType<typeof requestTo>;
    env?: Record<string, string>;
    /** Runs first, through the same front server (its env given), none of its requests held: a watch's baseline. */
    before?: (env: Record<string, string>) => Promise<void>;
  } = {},
) {
  let armed = options.before === undefined;
  const gate = holdUntilReleased((req) => armed && held(req));
  const server = await startFrontServer(h, (req) => options.answered === false && armed && held(req), gate);
  try {
    const env = { ...frontEnv(h, server), ...options.env };
    await options.before?.(env);
    armed = true;
    const signals = processSignals();
    const running = h.cli(args, { env, signals });
    await gate.arrived;
    const beforeSignal = server.requests.length;
    signals.send(signal);
    gate.release();
    const result = await running;
    const sent = options.counted === undefined ? 0 : server.requests.filter(options.counted).length;
    const sentAfterSignal = server.requests.slice(beforeSignal).map((request) => `${request.method} ${request.url}`);
    return { ...result, exits: signals.exits, sent, sentAfterSignal };
  } finally {
    await server.close();
  }
}
