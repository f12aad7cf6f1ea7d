// A faithful local emulator of the ticketing service (docs/service.md 4.0-4.17), used by
// `tkt sandbox` and by every test of the project. Plain node:http for speed.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { DemoLogin } from './demo.js';
import { demoLogins, emptyState } from './demo.js';
import { addDemoTickets, addSeedTickets } from './demo-tickets.js';
import { HttpFailure, sendJson } from './http.js';
import type { SandboxState } from './model.js';
import { issueToken } from './auth-routes.js';
import type { SandboxConfig } from './call.js';
import { matchRoute, runRoute } from './routes.js';
import { SandboxStore } from './store.js';
import { processIsAlive } from '../util/process-alive.js';

export type { DemoLogin } from './demo.js';
export type * from './model.js';

export interface SandboxOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port); `tkt sandbox` defaults to 8642. */
  port?: number;
  /** State is persisted here (atomically) and reloaded at start; uploads go to `<dataFile>.uploads/`. */
  dataFile?: string;
  /** Extra generated tickets on top of the demo data. */
  seedTickets?: number;
  /** Default true. */
  demoData?: boolean;
  /** 'overwrite': update/{id} clears every optional field absent from the form. Default 'patch'. */
  updateMode?: 'patch' | 'overwrite';
  now?: () => Date;
  /** Wrong passwords before an account is locked out; default 5. */
  lockoutThreshold?: number;
  /** Lockout duration; default 15 minutes. */
  lockoutMs?: number;
  /** With the dot, any case; others are skipped silently. */
  allowedExtensions?: string[];
  /** Technician auto-assignment on register/new when no AssignedUser is given; default true. */
  autoAssign?: boolean;
}

export interface SandboxStats {
  requests: number;
  inFlight: number;
  maxInFlight: number;
  /**
   * Key like "POST /api/TicketsApi/close/{id}"; a HEAD as its GET route's path ("HEAD /api/TicketsApi/{id}");
   * unmatched requests count as "<METHOD> (unmatched)".
   */
  byRoute: Record<string, number>;
}

export interface RunningSandbox {
  /** The base URL, e.g. http://127.0.0.1:43123. */
  url: string;
  stats: SandboxStats;
  resetStats(): void;
  /**
   * Live state; inspect it, and change fields of existing objects if a test needs a special case
   * (read `state` again for each edit: reading it is what tells the list cache to start afresh).
   */
  state: SandboxState;
  /** A token for any user; a negative expiresInSeconds gives an expired one. */
  issueToken(username: string, options?: { expiresInSeconds?: number }): string;
  demoLogins: DemoLogin[];
  /**
   * The next request to `routeKey` (a stats key, e.g. "POST /api/TicketsApi/resolve/{id}") that
   * passes authentication fails with `status` (default 500, as an HTML error page; 4xx as a save
   * error message): for testing how clients handle 500 and "save error" answers.
   */
  failNext(routeKey: string, status?: number): void;
  /** Closes the server and every keep-alive socket, and saves the state. */
  close(): Promise<void>;
}

const DEFAULT_ALLOWED_EXTENSIONS = ['.txt', '.log', '.png', '.jpg', '.jpeg', '.gif', '.pdf', '.csv', '.json', '.zip', '.docx', '.xlsx'];

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const now = options.now ?? (() => new Date());
  const { store, uploadDir, temporary } = openStore(options, now());
  const config: SandboxConfig = {
    updateMode: options.updateMode ?? 'patch',
    allowedExtensions: new Set((options.allowedExtensions ?? DEFAULT_ALLOWED_EXTENSIONS).map((e) => (e.startsWith('.') ? e : `.${e}`).toLowerCase())),
    autoAssign: options.autoAssign ?? true,
    lockoutThreshold: options.lockoutThreshold ?? 5,
    lockoutMs: options.lockoutMs ?? 15 * 60_000,
    now,
    uploadDir,
  };
  const stats: SandboxStats = { requests: 0, inFlight: 0, maxInFlight: 0, byRoute: {} };
  const faults = new Map<string, number>();
  let url = '';

  const server = createServer((req, res) => {
    stats.requests++;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    res.on('close', () => {
      stats.inFlight--;
    });
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const match = matchRoute(method, path);
    const key = match?.key ?? `${method} (unmatched)`;
    stats.byRoute[key] = (stats.byRoute[key] ?? 0) + 1;
    if (!match) {
      req.resume();
      sendJson(res, 404, `No route for ${method} ${path}.`);
      return;
    }
    const takeFault = (): number | undefined => {
      const status = faults.get(key);
      faults.delete(key);
      return status;
    };
    const baseUrl = req.headers.host ? `http://${req.headers.host}` : url;
    runRoute(match, req, res, store, config, baseUrl, takeFault).catch((error: unknown) => {
      if (error instanceof HttpFailure) {
        if (!req.complete) req.resume();
        if (!res.headersSent) error.send(res);
        return;
      }
      if (!res.headersSent) sendJson(res, 500, { message: 'Unexpected sandbox error.', detail: String(error) });
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  return {
    url,
    stats,
    resetStats() {
      stats.requests = 0;
      stats.maxInFlight = stats.inFlight;
      stats.byRoute = {};
    },
    // Tests may edit the state they get here: handing it out counts as a change for the caches.
    get state() {
      store.version++;
      return store.state;
    },
    issueToken(username, tokenOptions = {}) {
      const user = store.userByUsername(username);
      if (!user) throw new Error(`no sandbox user named ${username}`);
      return issueToken(store, user, now(), tokenOptions.expiresInSeconds);
    },
    demoLogins: demoLogins(store.state.users),
    failNext(routeKey, status = 500) {
      faults.set(routeKey, status);
    },
    async close() {
      if (!server.listening) return;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      store.flush();
      if (temporary) rmSync(uploadDir, { recursive: true, force: true });
    },
  };
}

/** A save killed between writing `<dataFile>.<pid>.tmp` and renaming it leaves the temp file behind. */
function removeTempFilesOfDeadSaves(dataFile: string): void {
  const prefix = `${basename(dataFile)}.`;
  for (const name of readdirSync(dirname(dataFile))) {
    const pid = name.startsWith(prefix) && name.endsWith('.tmp') ? name.slice(prefix.length, -'.tmp'.length) : '';
    if (/^\d+$/.test(pid) && !processIsAlive(Number(pid))) rmSync(join(dirname(dataFile), name), { force: true });
  }
}

/** A --data path the sandbox cannot keep its state in: a directory, or a file of something else. */
export class SandboxDataError extends Error {
  constructor(
    readonly path: string,
    readonly problem: 'directory' | 'not-sandbox-data',
    readonly detail = '',
  ) {
    super(problem === 'directory' ? `${path} is a directory` : `${path} is not sandbox data (${detail})`);
    this.name = 'SandboxDataError';
  }
}

/** The state saved in `dataFile`; undefined for a file not there yet or empty (as mktemp makes it). */
function readSavedState(dataFile: string): SandboxState | undefined {
  let text: string;
  try {
    text = readFileSync(dataFile, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EISDIR') throw new SandboxDataError(dataFile, 'directory');
    throw error;
  }
  if (text.trim() === '') return undefined;
  let saved: unknown;
  try {
    saved = JSON.parse(text);
  } catch (error) {
    throw new SandboxDataError(dataFile, 'not-sandbox-data', (error as Error).message);
  }
  if (!isSandboxState(saved)) throw new SandboxDataError(dataFile, 'not-sandbox-data', 'JSON without the users, tickets and lookups a sandbox saves');
  return saved;
}

/** The members the store indexes at start: a file without them is not one the sandbox wrote. */
function isSandboxState(value: unknown): value is SandboxState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Record<string, unknown>;
  return (
    typeof state.secret === 'string' &&
    typeof state.lookups === 'object' &&
    typeof state.nextId === 'object' &&
    ['users', 'tickets', 'conversations', 'attachments', 'outbox'].every((name) => Array.isArray(state[name]))
  );
}

function openStore(options: SandboxOptions, now: Date): { store: SandboxStore; uploadDir: string; temporary: boolean } {
  const { dataFile } = options;
  // Read first: a path the sandbox cannot use leaves nothing behind (no uploads folder).
  const saved = dataFile === undefined ? undefined : readSavedState(dataFile);
  const uploadDir = dataFile === undefined ? mkdtempSync(join(tmpdir(), 'tkt-sandbox-')) : `${dataFile}.uploads`;
  mkdirSync(uploadDir, { recursive: true });
  if (dataFile !== undefined) removeTempFilesOfDeadSaves(dataFile);
  if (saved !== undefined) return { store: new SandboxStore(saved, dataFile), uploadDir, temporary: false };
  const store = new SandboxStore(emptyState(), dataFile);
  if (options.demoData ?? true) addDemoTickets(store, now, uploadDir);
  if (options.seedTickets) addSeedTickets(store, options.seedTickets, now);
  store.flush();
  return { store, uploadDir, temporary: dataFile === undefined };
}
