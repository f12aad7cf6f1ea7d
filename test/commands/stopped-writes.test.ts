// A command that changes one ticket, stopped by SIGTERM or SIGINT (how CI cancels a job, Ctrl-C)
// while the service has its change: the answer is awaited, the outcome told as a run that was not
// stopped tells it, then the run ends with the signal's code and line (docs/cli.md section 8). A
// signal before the change leaves sends nothing.
import { execFileSync, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startServer } from '../api/server.js';
import { processSignals } from '../cli/fake-process.js';
import { integrationCreateArgs, validCreateArgs } from '../helpers/create-args.js';
import type { Harness } from '../helpers/harness.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxTicket } from '../../src/sandbox/index.js';
import type { Context } from '../../src/context/context.js';
import { frontEnv, holdUntilReleased, requestTo, startFrontServer, stoppedAt, unusedTicket, useHarness, useTempDir, userId } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({}, (harness) => (h = harness));
let dir: string;
useTempDir('tkt-stopped-', (path) => (dir = path));

const STOPS = [
  ['SIGTERM', 143, 'error: stopped by SIGTERM\n'],
  ['SIGINT', 130, 'error: interrupted\n'],
] as const;

/** What the first signal says while a request is in flight, stdin no terminal (README, Interruption). */
const waiting = (signal: 'SIGTERM' | 'SIGINT', seconds = '30') =>
  `${signal === 'SIGINT' ? 'interrupted' : 'stopped by SIGTERM'}: waiting up to ${seconds}s for 1 request in flight; another ${signal} gives up\n`;
/** The same, as the start of a pattern. */
const WAITING_TERM = '^stopped by SIGTERM: waiting up to 30s for 1 request in flight; another SIGTERM gives up\\n';

describe('tkt create stopped while the service creates its ticket', () => {
  it.each(STOPS)('%s: prints the new ID (-q), then exits %i with its line', async (signal, code, line) => {
    const title = `stopped mid-create ${signal}`;
    const result = await stoppedAt(h, ['create', ...integrationCreateArgs({ title }), '-q'], requestTo('POST', '/api/TicketsApi/new'), signal);
    const created = h.sandbox.state.tickets.filter((t) => t.title === title);
    expect(created).toHaveLength(1);
    expect(result).toMatchObject({ code, stdout: `${created[0]!.id}\n`, stderr: waiting(signal) + line, exits: [] });
  });
});

const RESOLVED = 6;

/** A command line that changes ticket `id` (a file it uploads in `dir`), the request of its change, and what shows it was made. */
interface Write {
  args: (id: number) => string[];
  change: (id: number) => ReturnType<typeof requestTo>;
  /** Puts the ticket in a state the command changes (unassigned for assign, resolved for reopen). */
  prepare?: (t: SandboxTicket) => void;
}

const post = (action: string) => (id: number) => requestTo('POST', `/api/TicketsApi/${action}/${id}`);
const WRITES: Record<string, Write> = {
  attach: { args: (id) => ['attach', String(id), join(dir, 'build.log')], change: post('addfiles') },
  reply: { args: (id) => ['reply', String(id), '--message', 'On its way'], change: post('reply') },
  forward: { args: (id) => ['forward', String(id), '--to', 'vendor@example.com', '--message', 'FYI'], change: post('forward') },
  update: { args: (id) => ['update', String(id), '--priority', 'high'], change: post('update') },
  pickup: { args: (id) => ['pickup', String(id)], change: post('pickup') },
  assign: { args: (id) => ['assign', String(id), 'tech'], change: post('update'), prepare: (t) => (t.assignedUser = null) },
  reopen: { args: (id) => ['reopen', String(id)], change: post('update'), prepare: (t) => (t.ticketStatusId = RESOLVED) },
  resolve: { args: (id) => ['resolve', String(id), '--details', 'Fixed'], change: post('resolve') },
  delete: { args: (id) => ['delete', String(id), '--yes'], change: (id) => requestTo('DELETE', `/api/TicketsApi/${id}`) },
};

describe('a change of one ticket stopped while the service has it', () => {
  it.each(Object.keys(WRITES))('%s: waits for the answer, tells the outcome, then exits 143 saying SIGTERM stopped it', async (name) => {
    await writeFile(join(dir, 'build.log'), 'log\n');
    const write = WRITES[name]!;
    const ticket = unusedTicket(h);
    write.prepare?.(ticket);
    const { id } = ticket;
    const result = await stoppedAt(h, write.args(id), write.change(id), 'SIGTERM');
    // The outcome as a run that was not stopped tells it: a line naming the ticket (the ID
    // commands add it to their summary), and the stop.
    expect(result.stdout).toMatch(new RegExp(`^(✓ |Updated ticket )\\S*.*#${id}\\b`));
    // A new priority alone (update's) has the service set a due date: said before the stop.
    expect(result.stderr).toMatch(
      new RegExp(`${WAITING_TERM}(warning: ticket #${id}: the service set its due date to .*\n)?error: stopped by SIGTERM(\n|: 1 of 1 done\n)`),
    );
    expect(result).toMatchObject({ code: 143, exits: [] });
  });

  it('attach whose answer never comes, then: in doubt, how to look, and the stop', async () => {
    await writeFile(join(dir, 'build.log'), 'log\n');
    const { id } = unusedTicket(h);
    const result = await stoppedAt(h, ['attach', String(id), join(dir, 'build.log'), '--timeout', '0.5'], post('addfiles')(id), 'SIGTERM', {
      answered: false,
    });
    expect(result.code).toBe(143);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^${waiting('SIGTERM', '0.5')}error: #${id} in doubt \\(it may have been carried out\\)\n  request timed out after [^:]+: POST \\S+/addfiles/${id}\n` +
          `hint: look at it with "tkt show ${id}" before running this again\nerror: stopped by SIGTERM\n$`,
      ),
    );
  });
});

// A read changes nothing: the first signal gives it up at once rather than waiting up to
// --timeout for it (a CI runner's grace before SIGKILL is short), and the change is never sent.
// The service never answers, under a --timeout of 60s: a pass proves the read was not waited for.
describe('a change of one ticket stopped before it is sent', () => {
  it.each(['reply', 'forward', 'update', 'assign', 'reopen', 'pickup'])(
    '%s: the read before it is given up at once, the change is never sent: exit 143',
    async (name) => {
      const write = WRITES[name]!;
      const ticket = unusedTicket(h, (t) => t.assignedUser !== userId(h, 'admin'));
      write.prepare?.(ticket);
      const { id } = ticket;
      const result = await stoppedAt(h, [...write.args(id), '--timeout', '60'], requestTo('GET', `/api/TicketsApi/${id}`), 'SIGTERM', {
        counted: write.change(id),
        answered: false,
      });
      expect(result.sent).toBe(0);
      expect(result).toMatchObject({ code: 143, stdout: '', exits: [] });
      // No wait said (nothing that changes is in flight), and no time-out of the read.
      expect(result.stderr).toMatch(/^error: stopped by SIGTERM(\n$|: 0 of 1 done, 1 not started\n)/);
      expect(result.stderr).not.toMatch(/in flight|timed out/);
    },
  );
});

describe('tkt update --priority P --due WHEN stopped between its two updates', () => {
  it('says the priority changed and the due date was not sent, and how to send it: exit 143', async () => {
    // Not critical already: the priority must change (4 is Critical).
    const ticket = unusedTicket(h, (t) => t.ticketPriorityId !== 4);
    const priorityBefore = ticket.ticketPriorityId;
    // The second read of the ticket comes after the first update (the priority) was answered: the
    // signal gives it up at once (nothing said of a wait), and the due date is never sent.
    let reads = 0;
    const secondRead = (req: Parameters<ReturnType<typeof requestTo>>[0]) => requestTo('GET', `/api/TicketsApi/${ticket.id}`)(req) && ++reads === 2;
    const result = await stoppedAt(h, ['update', String(ticket.id), '--priority', 'critical', '--due', '+4h'], secondRead, 'SIGTERM', {
      counted: post('update')(ticket.id),
    });
    expect(result.sent).toBe(1);
    expect(ticket.ticketPriorityId).not.toBe(priorityBefore);
    expect(result).toMatchObject({ code: 143, stdout: '' });
    // The due date as it was resolved when the run began: the hint sets that one.
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: ticket #${ticket.id}: the priority changed, but the due date was not sent: stopped by SIGTERM\n` +
          `hint: to set it, run "tkt update ${ticket.id} --due \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z"\n$`,
      ),
    );
  });
});

describe('a change of one ticket at a terminal, Ctrl-C while it is sent', () => {
  it.each([
    ['reply', async (id: number, ctx: Context) => (await import('../../src/commands/reply.js')).run({ id: String(id), message: 'On its way' }, ctx)],
    ['pickup', async (id: number, ctx: Context) => (await import('../../src/commands/pickup.js')).run({ ids: [String(id)] }, ctx)],
  ] as const)('%s: its outcome starts a line of its own, not after the terminal\'s "^C"', async (name, run) => {
    // Not the login's own ticket, which pickup would leave alone, sending nothing.
    const { id } = unusedTicket(h, (t) => t.assignedUser !== userId(h, 'admin'));
    const gate = holdUntilReleased(requestTo('POST', `/api/TicketsApi/${name}/${id}`));
    const server = await startFrontServer(h, () => false, gate);
    try {
      const r = await h.context({ tty: true, env: frontEnv(h, server) });
      const running = run(id, r.ctx).catch((error: unknown) => error);
      await gate.arrived;
      r.abort.abort('SIGINT');
      gate.release();
      await running;
      expect(r.stderr()).toBe('\n');
      expect(r.stdout()).toMatch(new RegExp(`^✓ .*#${id}\\b`));
    } finally {
      await server.close();
    }
  });
});

describe('tkt create stopped while it resolves names from a service that never answers', () => {
  const lookup = requestTo('GET', /^\/api\/TicketsApi\/(app)?metadata$/);

  it.each(STOPS)('%s: the lookup is given up, no other is fetched and nothing is created: exit %i at once', async (signal, code, line) => {
    const title = `stopped resolving names ${signal}`;
    const args = ['create', '-q', '--refresh', '--timeout', '60', ...validCreateArgs({ title, requester: 'Anna Berg', priority: 'high' })];
    const result = await stoppedAt(h, args, lookup, signal, { counted: lookup, answered: false });
    // The lookup the service had when the signal came, and no other.
    expect(result.sent).toBe(1);
    expect(h.sandbox.state.tickets.filter((t) => t.title === title)).toHaveLength(0);
    expect(result).toMatchObject({ code, stdout: '', stderr: line, exits: [] });
  });

  it('--integration (a CI job cancelled): the metadata read is given up, no time-out said: exit 143 at once', async () => {
    const title = 'cancelled CI create';
    const args = ['create', '--refresh', '--timeout', '60', ...integrationCreateArgs({ title })];
    const result = await stoppedAt(h, args, lookup, 'SIGTERM', { answered: false });
    expect(h.sandbox.state.tickets.filter((t) => t.title === title)).toHaveLength(0);
    expect(result).toMatchObject({ code: 143, stdout: '', stderr: 'error: stopped by SIGTERM\n', exits: [] });
  });
});

// A pipe that is still being written when the signal comes (`make | tkt attach ID /dev/stdin#x`
// cancelled): the service has not received the request whole, so it cannot have acted on it.
// The upload ends at once, as not done (not in doubt), and the run exits with the signal's code.
describe('an upload stopped while its body is still being sent', () => {
  it.each(STOPS)('%s: ends the upload at once, says it was not done, exits %i', async (signal, code, line) => {
    const { id } = unusedTicket(h);
    const fifo = join(dir, `live-${signal}`);
    execFileSync('mkfifo', [fifo]);
    // A writer that has written a line and stays open: the pipe never ends by itself.
    const writer = spawn('sh', ['-c', 'exec cat > "$0"', fifo], { stdio: ['pipe', 'ignore', 'inherit'] });
    writer.stdin.on('error', () => undefined);
    writer.stdin.write('line\n');
    let bodyArrived: () => void;
    const arrived = new Promise<void>((resolve) => (bodyArrived = resolve));
    const server = await startServer((req) => req.once('data', () => bodyArrived()));
    try {
      const signals = processSignals();
      const running = h.cli(['attach', String(id), `${fifo}#live.log`], { env: frontEnv(h, server), signals });
      await arrived;
      signals.send(signal);
      const result = await running;
      expect(result).toMatchObject({ code, stdout: '' });
      expect(signals.exits).toEqual([]);
      expect(result.stderr).toBe(
        `error: ${line.slice('error: '.length, -1)} while sending POST ${server.url}/api/TicketsApi/addfiles/${id}: not done, ` +
          'the service never received the whole request\n',
      );
    } finally {
      writer.kill();
      await server.close();
    }
  });
});

// tkt list gives up its reads at the first signal (ActionOptions.readsOnly): the line says which
// signal it was, as every other stopped run's does.
describe('tkt list stopped while it resolves names from a service that never answers', () => {
  const lookups = (req: Parameters<ReturnType<typeof requestTo>>[0]) => req.method === 'GET';
  it.each(STOPS)('%s: exits %i at once, its line naming the signal', async (signal, code, line) => {
    const result = await stoppedAt(h, ['list', '--status', 'Open', '--refresh'], lookups, signal, { answered: false });
    expect(result).toMatchObject({ code, stdout: '', exits: [] });
    expect(result.stderr).toMatch(new RegExp(`^${line.slice(0, -1)} while waiting for the answer to GET \\S+/api/TicketsApi/appmetadata\\n$`));
  });
});
