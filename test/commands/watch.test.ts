import { existsSync } from 'node:fs';
import { mkdir, readFile, rmdir, symlink, writeFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/commands/watch.js';
import { InterruptedError } from '../../src/errors.js';
import type { WatchTimer } from '../../src/watch/watch.js';
import { withIO, type Harness } from '../helpers/harness.js';
import { frontEnv, requestTo, sendsNothing, startFrontServer, stoppedAt, ticketById, unusedTicket, useHarness, useTempDir } from '../helpers/sandbox-state.js';
import { exitCodeOf } from '../../src/errors.js';
import { jsonLines, retitle, startWatch, wakeOnly } from '../helpers/watch-run.js';

let h: Harness;
useHarness({}, (harness) => (h = harness));
let dir: string;
useTempDir('tkt-watch-', (path) => (dir = path));

const setDeleted = (id: number, deleted: boolean) => {
  const ticket = ticketById(h, id);
  ticket.isDeleted = deleted;
  ticket.deletedOn = deleted ? new Date().toISOString() : null;
};

describe('tkt watch', () => {
  it('prints nothing for the baseline, then each event with old and new values', async () => {
    const changing = unusedTicket(h, (t) => t.ticketPriorityId !== null);
    const oldTitle = changing.title;
    const leaving = unusedTicket(h);
    const coming = unusedTicket(h);
    setDeleted(coming.id, true);
    const { r, clock, done } = await startWatch(h, { view: 'all-tickets', interval: '30' });
    expect(r.stdout()).toBe('');
    expect(clock.waits).toEqual([30_000]);

    const before = (await h.cli(['show', String(changing.id), '--json'])).stdout;
    const status = (JSON.parse(before) as { ticketStatus?: { status?: string } }).ticketStatus?.status;
    expect((await h.cli(['update', String(changing.id), '--status', 'on hold'])).code).toBe(0);
    retitle(h, changing.id, 'Renamed by the test');
    setDeleted(leaving.id, true);
    setDeleted(coming.id, false);
    await clock.next();

    const events = jsonLines(r.stdout());
    const changed = events.find((event) => event.event === 'changed');
    expect(changed).toMatchObject({ id: changing.id, changes: { title: [oldTitle, 'Renamed by the test'] }, ticket: { id: changing.id, status: 'On Hold' } });
    expect(changed?.changes.status?.[1]).toBe('On Hold');
    if (status !== undefined) expect(changed?.changes.status?.[0]).toBe(status);
    expect(changed?.changes.status?.[0]).not.toBe('On Hold');
    expect(events.filter((event) => event.event === 'removed')).toMatchObject([{ id: leaving.id, ticket: { title: leaving.title } }]);
    expect(events.filter((event) => event.event === 'added')).toMatchObject([{ id: coming.id, ticket: { title: coming.title } }]);
    expect(events).toHaveLength(3);
    for (const event of events) expect(Object.keys(event).slice(0, 3)).toEqual(['event', 'id', 'at']);

    // Nothing changed: nothing told.
    await clock.next();
    expect(jsonLines(r.stdout())).toHaveLength(3);

    r.abort.abort('SIGTERM');
    await expect(done).rejects.toBeInstanceOf(InterruptedError);
  });

  it('tells a change in one line with the time, for people', async () => {
    const ticket = unusedTicket(h);
    const oldTitle = ticket.title;
    const { r, clock, done } = await startWatch(h, { view: 'all-tickets' }, {});
    expect(clock.waits).toEqual([60_000]);
    expect((await h.cli(['update', String(ticket.id), '--priority', 'critical'])).code).toBe(0);
    retitle(h, ticket.id, 'Line test');
    await clock.next();
    // The SLA may move the due date with the priority: a local date and time.
    expect(r.stdout()).toMatch(
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d #${ticket.id} priority \\S+ → Critical, (due \\S+ → \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d, )?title ${oldTitle} → Line test\\n$`,
      ),
    );
    r.abort.abort('SIGINT');
    await expect(done).rejects.toBeInstanceOf(InterruptedError);
  });

  it('--initial tells every ticket of the first poll as added', async () => {
    const r = await h.context({ globals: { json: true } });
    await run({ view: 'all-tickets', once: true, initial: true }, r.ctx);
    const live = h.sandbox.state.tickets.filter((t) => !t.isDeleted);
    const events = jsonLines(r.stdout());
    expect(events.every((event) => event.event === 'added')).toBe(true);
    expect(events.map((event) => event.id).sort()).toEqual(live.map((t) => t.id).sort());
  });

  it('watches a range of dates, as tkt list filters it; a range whose end is not after its start is exit 2 before any request', async () => {
    const live = h.sandbox.state.tickets.filter((t) => !t.isDeleted);
    const created = live.map((t) => t.createdOn).sort();
    const [from, to] = [created[1]!, created[created.length - 2]!];
    const inRange = live.filter((t) => t.createdOn > from && t.createdOn < to);
    expect(inRange.length).toBeGreaterThan(0);
    expect(inRange.length).toBeLessThan(live.length);
    const told = await h.cli(['watch', '--once', '--initial', '--json', '--view', 'all-tickets', '--created-after', from, '--created-before', to]);
    expect(told.code, told.stderr).toBe(0);
    expect(
      jsonLines(told.stdout)
        .map((event) => event.id)
        .sort(),
    ).toEqual(inRange.map((t) => t.id).sort());
    const undated = live.filter((t) => t.dueDate === null);
    expect(undated.length).toBeGreaterThan(0);
    const due = await h.cli(['watch', '--once', '--initial', '--json', '--view', 'all-tickets', '--due-after', '-100000d']);
    expect(
      jsonLines(due.stdout)
        .map((event) => event.id)
        .sort(),
    ).toEqual(
      live
        .filter((t) => t.dueDate !== null)
        .map((t) => t.id)
        .sort(),
    );
    const reversed = await sendsNothing(h, () => h.cli(['watch', '--once', '--due-after', '+2d', '--due-before', '+1d']));
    expect(reversed.code).toBe(2);
    expect(reversed.stderr).toBe('error: --due-before +1d is not after --due-after +2d: the range is empty\n');
  });

  it('--once --state FILE: each run prints what changed since the previous one, nothing twice, nothing lost', async () => {
    const state = join(dir, 'once.json');
    const once = async () => {
      const result = await h.cli(['--json', 'watch', '--once', '--view', 'all-tickets', '--state', state]);
      expect(result.code).toBe(0);
      return jsonLines(result.stdout);
    };
    expect(await once()).toEqual([]);
    expect(JSON.parse(await readFile(state, 'utf8'))).toMatchObject({ version: 1 });
    const [first, second] = [unusedTicket(h), unusedTicket(h)];
    const [firstTitle, secondTitle] = [first.title, second.title];
    retitle(h, first.id, 'First change');
    expect((await once()).map((event) => [event.event, event.id, event.changes])).toEqual([['changed', first.id, { title: [firstTitle, 'First change'] }]]);
    expect(await once()).toEqual([]);
    retitle(h, second.id, 'Second change');
    retitle(h, first.id, 'Third change');
    expect((await once()).map((event) => [event.id, event.changes])).toEqual(
      [
        [first.id, { title: ['First change', 'Third change'] }],
        [second.id, { title: [secondTitle, 'Second change'] }],
      ].sort((a, b) => h.sandbox.state.tickets.findIndex((t) => t.id === b[0]) - h.sandbox.state.tickets.findIndex((t) => t.id === a[0])),
    );
    expect(await once()).toEqual([]);
  });

  it('--state is written only once the events are out of the process: a kill then cannot lose them', async () => {
    const state = join(dir, 'flushed.json');
    // A stdout that takes each write at once but hands it on later, as Node does when a pipe is full.
    const stateWhenHandedOn: boolean[] = [];
    const slowStdout = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        setImmediate(() => {
          if (chunk.length > 0) stateWhenHandedOn.push(existsSync(state));
          callback();
        });
      },
    });
    const r = await h.context({ globals: { json: true } });
    await run({ view: 'all-tickets', once: true, initial: true, state }, await withIO(r.ctx, { ...r.ctx.io, stdout: slowStdout }));
    await new Promise<void>((resolve) => slowStdout.end(resolve));
    expect(stateWhenHandedOn).toHaveLength(h.sandbox.state.tickets.filter((t) => !t.isDeleted).length);
    expect(stateWhenHandedOn).not.toContain(true);
    expect(existsSync(state)).toBe(true);
  });

  it('a run that dies after telling a poll but before keeping it: the next run tells the same events again (at least once)', async () => {
    const state = join(dir, 'window.json');
    const watchOnce = () => h.cli(['--json', 'watch', '--once', '--view', 'all-tickets', '--state', state]);
    expect((await watchOnce()).code).toBe(0);
    const ticket = unusedTicket(h);
    const oldTitle = ticket.title;
    retitle(h, ticket.id, 'Told, not kept');
    // A directory where this process's temporary state file goes: the events are out, the state cannot be replaced.
    const temporary = `${state}.${process.pid}.tmp`;
    await mkdir(temporary);
    const dying = await watchOnce();
    expect(dying.code).toBe(1);
    expect(dying.stderr).toContain(`error: cannot write the state file ${state} (${temporary}): a directory, not a file\n`);
    const told = jsonLines(dying.stdout).map((event) => [event.event, event.id, event.changes]);
    expect(told).toEqual([['changed', ticket.id, { title: [oldTitle, 'Told, not kept'] }]]);
    await rmdir(temporary);
    const next = await watchOnce();
    expect(next.code).toBe(0);
    expect(jsonLines(next.stdout).map((event) => [event.event, event.id, event.changes])).toEqual(told);
    expect(jsonLines((await watchOnce()).stdout)).toEqual([]);
  });

  it('--state refuses, before any request, a file that another watch wrote', async () => {
    const state = join(dir, 'owned.json');
    expect((await h.cli(['watch', '--once', '--view', 'all-tickets', '--status', 'open', '--state', state])).code).toBe(0);
    expect(JSON.parse(await readFile(state, 'utf8'))).toMatchObject({ watching: { view: 'all-tickets', options: { status: 'open' } } });
    const kept = await readFile(state, 'utf8');
    const otherView = await sendsNothing(h, () => h.cli(['watch', '--once', '--view', 'unassigned-tickets', '--status', 'open', '--state', state]));
    expect(otherView.code).toBe(2);
    expect(otherView.stderr).toBe(
      `error: the state file ${state} belongs to another watch: the view all-tickets --status open, not the view unassigned-tickets --status open\n` +
        `hint: use another --state file for this watch, or remove ${state} to start a new baseline\n`,
    );
    const noFilter = await sendsNothing(h, () => h.cli(['watch', '--once', '--view', 'all-tickets', '--state', state]));
    expect(noFilter.stderr).toContain('belongs to another watch: the view all-tickets --status open, not the view all-tickets\n');
    const [low, high] = [unusedTicket(h), unusedTicket(h)].map((t) => t.id).sort((a, b) => a - b) as [number, number];
    const tickets = await sendsNothing(h, () => h.cli(['watch', '--once', String(low), String(high), '--state', state]));
    expect(tickets.stderr).toContain(`not the tickets #${low} #${high}\n`);
    expect(await readFile(state, 'utf8')).toBe(kept);

    const ids = join(dir, 'ids.json');
    expect((await h.cli(['watch', '--once', String(high), String(low), '--state', ids])).code).toBe(0);
    // The same tickets in another order are the same watch.
    expect((await h.cli(['watch', '--once', String(low), String(high), '--state', ids])).code).toBe(0);
    const fewer = await sendsNothing(h, () => h.cli(['watch', '--once', String(low), '--state', ids]));
    expect(fewer.code).toBe(2);
    expect(fewer.stderr).toContain(`error: the state file ${ids} belongs to another watch: the tickets #${low} #${high}, not the ticket #${low}\n`);
  });

  it('--state records the service and the user it was taken from: another of either is refused before any request, naming what differs', async () => {
    const state = join(dir, 'whose.json');
    const watchAs = (env: Record<string, string>) => h.cli(['--json', 'watch', '--once', '--view', 'all-tickets', '--state', state], { env });
    expect((await watchAs({})).code).toBe(0);
    const adminId = h.sandbox.demoLogins.find((login) => login.username === 'admin')?.userId;
    expect(JSON.parse(await readFile(state, 'utf8'))).toMatchObject({ service: h.sandbox.url, user: { id: adminId, name: 'admin' } });
    const kept = await readFile(state, 'utf8');

    // The same sandbox under another name stands for staging and production.
    const otherUrl = h.sandbox.url.replace('127.0.0.1', 'localhost');
    const otherService = await sendsNothing(h, () => watchAs({ TKT_URL: otherUrl, TKT_TOKEN: h.sandbox.issueToken('admin') }));
    expect(otherService.code).toBe(2);
    expect(otherService.stderr).toBe(
      `error: the state file ${state} belongs to another watch: the service ${h.sandbox.url}, not ${otherUrl}\n` +
        `hint: use another --state file for this watch, or remove ${state} to start a new baseline\n`,
    );
    const otherUser = await sendsNothing(h, () => watchAs({ TKT_TOKEN: h.sandbox.issueToken('tech') }));
    expect(otherUser.code).toBe(2);
    expect(otherUser.stderr).toContain(`error: the state file ${state} belongs to another watch: the user admin, not tech\n`);
    expect(await readFile(state, 'utf8')).toBe(kept);

    // The same user through TKT_TOKEN (its claims, not the saved login) is the same watch.
    const sameUser = await watchAs({ TKT_TOKEN: h.sandbox.issueToken('admin') });
    expect([sameUser.code, sameUser.stderr, sameUser.stdout]).toEqual([0, '', '']);
  });

  it('--state compares view and lookup names as tkt list reads them, without regard to case, and keeps the view as tkt list spells it', async () => {
    const state = join(dir, 'any-case.json');
    const watchWith = (...args: string[]) => h.cli(['--json', 'watch', '--once', ...args, '--state', state]);
    const first = await watchWith('--view', 'All-Tickets', '--status', 'open', '--priority', 'high');
    expect([first.code, first.stderr]).toEqual([0, '']);
    expect(JSON.parse(await readFile(state, 'utf8'))).toMatchObject({ watching: { view: 'all-tickets', options: { status: 'open', priority: 'high' } } });
    for (const args of [
      ['--view', 'all-tickets', '--status', 'Open', '--priority', 'High'],
      ['--view', 'AllTickets', '--status', 'OPEN', '--priority', 'high'],
    ]) {
      const again = await watchWith(...args);
      expect([args, again.code, again.stderr]).toEqual([args, 0, '']);
    }
    const other = await sendsNothing(h, () => watchWith('--view', 'all-tickets', '--status', 'closed', '--priority', 'high'));
    expect(other.code).toBe(2);
  });

  it('--state held by another live watch: waits for it a minute, on a clock the test moves, then exit 1 naming it, before any request', async () => {
    const state = join(dir, 'held.json');
    // This test's own process stands for the other watch: it is alive.
    await writeFile(`${state}.lock`, String(process.pid));
    const r = await h.context();
    let now = r.ctx.now().getTime();
    const waits: number[] = [];
    const movingTimer: WatchTimer = {
      sleep: async (ms) => {
        waits.push(ms);
        now += ms;
      },
    };
    const ctx = { ...r.ctx, now: () => new Date(now) };
    const error = await sendsNothing(h, () =>
      run({ view: 'all-tickets', once: true, state }, ctx, movingTimer).then(
        () => undefined,
        (failure: unknown) => failure,
      ),
    );
    expect(exitCodeOf(error)).toBe(1);
    expect((error as Error).message).toBe(`the state file ${state} is in use by another tkt watch (pid ${process.pid}), still after 60 s`);
    expect((error as { hint?: string }).hint).toBe(
      `a state file serves one watch at a time: give this watch its own --state file (if no tkt watch runs as pid ${process.pid}, remove ${state}.lock)`,
    );
    const waited = waits.reduce((sum, ms) => sum + ms, 0);
    expect(waited).toBeGreaterThan(60_000);
    // Backing off: not thousands of looks at the lock.
    expect(waits.length).toBeLessThan(100);
    expect(await readFile(`${state}.lock`, 'utf8')).toBe(String(process.pid));
    expect(existsSync(state)).toBe(false);
    // Not at a terminal (cron): no word while it waits.
    expect(r.stderr()).toBe('');
  });

  it('at a terminal, says once that it waits for the --state lock; Ctrl-C then ends the run as an interruption (exit 130), leaving the lock to its holder', async () => {
    const state = join(dir, 'held-interrupted.json');
    await writeFile(`${state}.lock`, String(process.pid));
    const r = await h.context({ tty: true });
    const interruptingTimer: WatchTimer = {
      sleep: async () => r.abort.abort(),
    };
    const error = await sendsNothing(h, () =>
      run({ view: 'all-tickets', once: true, state }, r.ctx, interruptingTimer).then(
        () => undefined,
        (failure: unknown) => failure,
      ),
    );
    expect(error).toBeInstanceOf(InterruptedError);
    expect(r.stderr()).toBe(`waiting for another tkt watch (pid ${process.pid}) to finish with the state file ${state} (up to 60 s)\n`);
    expect(await readFile(`${state}.lock`, 'utf8')).toBe(String(process.pid));
  });

  it('a long-running watch holds the lock of its --state from before its first poll until it ends', async () => {
    const state = join(dir, 'long.json');
    const { r, clock, done } = await startWatch(h, { view: 'all-tickets', state });
    expect(await readFile(`${state}.lock`, 'utf8')).toBe(String(process.pid));
    await clock.next();
    expect(await readFile(`${state}.lock`, 'utf8')).toBe(String(process.pid));
    r.abort.abort();
    await expect(done).rejects.toBeInstanceOf(InterruptedError);
    expect(existsSync(`${state}.lock`)).toBe(false);
    expect(existsSync(state)).toBe(true);
  });

  it('--state in a folder that does not exist is exit 2 before any request, naming the folder', async () => {
    const missing = join(dir, 'nodir');
    const result = await sendsNothing(h, () => h.cli(['watch', '--once', '--view', 'all-tickets', '--state', join(missing, 'x.json')]));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: --state ${join(missing, 'x.json')}: the folder ${missing} does not exist\nhint: create it, or give a file in another folder\n`,
    );
    const plainFile = join(dir, 'plain');
    await writeFile(plainFile, '');
    const notFolder = await sendsNothing(h, () => h.cli(['watch', '--once', '--view', 'all-tickets', '--state', join(plainFile, 'x.json')]));
    expect(notFolder.code).toBe(2);
    expect(notFolder.stderr).toContain(`error: --state ${join(plainFile, 'x.json')}: ${plainFile} is not a folder\n`);
  });

  it('--state naming a directory, or a file that cannot be read, is exit 2 before any request, said in words; a directory leaves no lock beside it', async () => {
    const folder = join(dir, 'states');
    await mkdir(folder);
    const result = await sendsNothing(h, () => h.cli(['watch', '--once', '--view', 'all-tickets', '--state', folder]));
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: --state ${folder}: a directory, not a file\nhint: give a file in it: --state ${join(folder, 'watch.json')}\n`,
    });
    expect(existsSync(`${folder}.lock`)).toBe(false);
    // Any other file that cannot be read is said in words too, without Node's code and call.
    const loop = join(dir, 'loop.json');
    await symlink(loop, loop);
    const unreadable = await sendsNothing(h, () => h.cli(['watch', '--once', '--view', 'all-tickets', '--state', loop]));
    expect(unreadable).toEqual({ code: 2, stdout: '', stderr: `error: cannot read the state file ${loop}: too many symbolic links encountered\n` });
    // So is a lock that cannot be made beside it: a name of 251 characters leaves no room for ".lock".
    const longest = join(dir, 'w'.repeat(251));
    const unlockable = await sendsNothing(h, () => h.cli(['watch', '--once', '--view', 'all-tickets', '--state', longest]));
    expect(unlockable).toEqual({ code: 1, stdout: '', stderr: `error: cannot lock the state file ${longest}: name too long\n` });
  });

  it('--state takes an empty file (as mktemp or touch leave it) as no state yet; other content that is not a state is refused', async () => {
    for (const [name, content] of [
      ['empty.json', ''],
      ['blank.json', ' \n\t\n'],
    ] as const) {
      const state = join(dir, name);
      await writeFile(state, content);
      const first = await h.cli(['--json', 'watch', '--once', '--view', 'all-tickets', '--state', state]);
      expect([first.code, first.stderr, first.stdout]).toEqual([0, '', '']);
      expect(JSON.parse(await readFile(state, 'utf8'))).toMatchObject({ version: 1, watching: { view: 'all-tickets' } });
      const ticket = unusedTicket(h);
      const oldTitle = ticket.title;
      retitle(h, ticket.id, `Changed after ${name}`);
      const next = await h.cli(['--json', 'watch', '--once', '--view', 'all-tickets', '--state', state]);
      expect(jsonLines(next.stdout).map((event) => [event.event, event.id, event.changes])).toEqual([
        ['changed', ticket.id, { title: [oldTitle, `Changed after ${name}`] }],
      ]);
    }
    const initial = join(dir, 'empty-initial.json');
    await writeFile(initial, '');
    const told = await h.cli(['--json', 'watch', '--once', '--initial', '--view', 'all-tickets', '--state', initial]);
    expect(jsonLines(told.stdout)).toHaveLength(h.sandbox.state.tickets.filter((t) => !t.isDeleted).length);

    for (const content of ['not json', '{}\n', '\n[]\n']) {
      const other = join(dir, 'other.json');
      await writeFile(other, content);
      const refused = await sendsNothing(h, () => h.cli(['watch', '--once', '--view', 'all-tickets', '--state', other]));
      expect(refused.code).toBe(2);
      const [error, hint, end] = refused.stderr.split('\n');
      expect(error).toMatch(/^error: the state file .+ is not one tkt watch wrote: ./);
      expect(error).toContain(other);
      expect([hint, end]).toEqual(['hint: remove it to start a new baseline', '']);
      expect(await readFile(other, 'utf8')).toBe(content);
    }
  });

  it('--state takes a file written before watches were recorded in it, and records this one', async () => {
    const state = join(dir, 'old.json');
    const ticket = unusedTicket(h);
    await writeFile(
      state,
      `${JSON.stringify({ version: 1, at: new Date().toISOString(), tickets: [{ ...ticket, id: ticket.id, title: 'Old title', status: null, priority: null, assignee: null, requester: null, due: null }] })}\n`,
    );
    const result = await h.cli(['--json', 'watch', '--once', String(ticket.id), '--state', state]);
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout).map((event) => [event.event, event.changes.title])).toEqual([['changed', ['Old title', ticket.title]]]);
    expect(JSON.parse(await readFile(state, 'utf8'))).toMatchObject({
      version: 1,
      service: h.sandbox.url,
      user: { name: 'admin' },
      watching: { ids: [ticket.id] },
    });
  });

  it('tkt watch ID...: a ticket that does not exist at the first poll is exit 3 naming it, before anything is told', async () => {
    const missing = h.sandbox.state.tickets.reduce((highest, t) => Math.max(highest, t.id), 0) + 1000;
    const alone = await h.cli(['watch', '--once', String(missing), '--initial']);
    expect(alone.code).toBe(3);
    expect(alone.stdout).toBe('');
    expect(alone.stderr).toContain(`/api/TicketsApi/${missing}`);
    expect(alone.stderr).toContain(`Ticket ${missing} was not found.`);
    const ticket = unusedTicket(h);
    const state = join(dir, 'missing.json');
    const withOthers = await h.cli(['watch', '--once', String(ticket.id), String(missing), '--initial', '--state', state]);
    expect(withOthers.code).toBe(3);
    expect(withOthers.stdout).toBe('');
    expect(existsSync(state)).toBe(false);
  });

  it('tkt watch ID...: a ticket gone after the first poll is removed, once', async () => {
    const [kept, gone] = [unusedTicket(h), unusedTicket(h)];
    const state = join(dir, 'gone.json');
    const args = ['--json', 'watch', '--once', String(kept.id), String(gone.id), '--state', state];
    // The sandbox never forgets a ticket: a server in front of it answers as the service does for one purged.
    let purged = false;
    const server = await startFrontServer(h, (req, res) => {
      if (!purged || req.method !== 'GET' || req.url !== `/api/TicketsApi/${gone.id}`) return false;
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(`Ticket ${gone.id} was not found.`));
      return true;
    });
    try {
      // The state records the service: every run goes through the same one.
      expect((await h.cli(args, { env: frontEnv(h, server) })).code).toBe(0);
      purged = true;
      const told = await h.cli(args, { env: frontEnv(h, server) });
      expect(told.code).toBe(0);
      expect(jsonLines(told.stdout)).toMatchObject([{ event: 'removed', id: gone.id, changes: {}, reason: 'deleted', ticket: { title: gone.title } }]);
      const after = await h.cli(args, { env: frontEnv(h, server) });
      expect(after.code).toBe(0);
      expect(after.stdout).toBe('');
    } finally {
      await server.close();
    }
  });

  it('empty stdin is nothing to watch: exit 0 at once, with or without --once, saying so on stderr (docs/cli.md section 7)', async () => {
    for (const args of [
      ['watch', '-'],
      ['watch', '--once', '-'],
      ['--json', 'watch', '-', '--state', join(dir, 'no-ids.json')],
    ]) {
      const result = await sendsNothing(h, () => h.cli(args, { stdin: '\n# none today\n' }));
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe('no ticket IDs on stdin: nothing to watch\n');
    }
    expect(existsSync(join(dir, 'no-ids.json'))).toBe(false);
  });

  it('a removed event says why and carries the values read since: left a filter (--status Open) or deleted; every event has changes', async () => {
    const [moving, deleted, coming] = [unusedTicket(h, (t) => t.ticketStatusId === 1), unusedTicket(h, (t) => t.ticketStatusId === 1), unusedTicket(h)];
    const { r, clock, done } = await startWatch(h, { view: 'all-tickets', status: 'Open' });
    expect((await h.cli(['update', String(moving.id), '--status', 'In Progress'])).code).toBe(0);
    expect((await h.cli(['delete', String(deleted.id), '--yes'])).code).toBe(0);
    expect((await h.cli(['update', String(coming.id), '--status', 'Open'])).code).toBe(0);
    await clock.next();
    const events = jsonLines(r.stdout());
    expect(events.find((event) => event.id === moving.id)).toMatchObject({
      event: 'removed',
      reason: 'left the view',
      changes: { status: ['Open', 'In Progress'] },
      ticket: { status: 'In Progress' },
    });
    expect(events.find((event) => event.id === deleted.id)).toMatchObject({ event: 'removed', reason: 'deleted', changes: {}, ticket: { status: 'Open' } });
    if (coming.ticketStatusId !== 1) expect(events.find((event) => event.id === coming.id)).toMatchObject({ event: 'added', changes: {} });
    for (const event of events) expect(Object.keys(event)).toContain('changes');
    r.abort.abort('SIGTERM');
    await expect(done).rejects.toBeInstanceOf(InterruptedError);
  });

  it('a removed event at a terminal says why, and what changed since it was last seen', async () => {
    const ticket = unusedTicket(h, (t) => t.ticketStatusId === 1);
    const { r, clock, done } = await startWatch(h, { view: 'all-tickets', status: 'Open' }, {});
    expect((await h.cli(['update', String(ticket.id), '--status', 'In Progress'])).code).toBe(0);
    await clock.next();
    expect(r.stdout()).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d #${ticket.id} removed \\(left the view\\): .+ \\(status Open → In Progress\\)\\n$`));
    r.abort.abort('SIGINT');
    await expect(done).rejects.toBeInstanceOf(InterruptedError);
  });

  it('refuses an --interval under 10 seconds before any request', async () => {
    const result = await h.cli(['watch', '--interval', '9']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: invalid --interval "9": expected a whole number from 10');
  });

  it('--exec runs CMD per event in order, the event on stdin; with --once a failing CMD is reported, the rest still run, and the run exits 1', async () => {
    const [first, second] = [unusedTicket(h), unusedTicket(h)];
    const log = join(dir, 'exec.log');
    const command = `printf '%s %s ' "$TKT_EVENT" "$TKT_TICKET_ID" >> ${log}; cat >> ${log}; [ "$TKT_TICKET_ID" != ${first.id} ] || exit 3`;
    const result = await h.cli(['watch', String(first.id), String(second.id), '--once', '--initial', '--exec', command]);
    const lines = (await readFile(log, 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => line.slice(0, line.indexOf(' {')))).toEqual([`added ${first.id}`, `added ${second.id}`]);
    expect(JSON.parse(lines[1]!.slice(lines[1]!.indexOf('{')))).toMatchObject({ event: 'added', id: second.id, ticket: { title: second.title } });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`warning: --exec failed (exit 3) for added #${first.id}\nerror: --exec failed for 1 of 2 events\n`);
  });

  it('--once --state with a failing --exec leaves the state as it was: the next run tells the same events again', async () => {
    const state = join(dir, 'exec-state.json');
    const hook = join(dir, 'hook-up');
    // A webhook that is down until the file `hook` exists.
    const args = ['--json', 'watch', '--once', '--view', 'all-tickets', '--state', state, '--exec', `cat > /dev/null; [ -e ${hook} ]`];
    expect((await h.cli(args)).code).toBe(0);
    const kept = await readFile(state, 'utf8');
    const ticket = unusedTicket(h);
    const oldTitle = ticket.title;
    retitle(h, ticket.id, 'Webhook down');
    const failing = await h.cli(args);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain('error: --exec failed for 1 of 1 event\n');
    expect(failing.stderr).toContain(`hint: ${state} was left as it was: the next run tells this poll's events again`);
    expect(await readFile(state, 'utf8')).toBe(kept);
    const told = jsonLines(failing.stdout).map((event) => [event.event, event.id, event.changes]);
    expect(told).toEqual([['changed', ticket.id, { title: [oldTitle, 'Webhook down'] }]]);
    await writeFile(hook, '');
    const next = await h.cli(args);
    expect(next.code).toBe(0);
    expect(jsonLines(next.stdout).map((event) => [event.event, event.id, event.changes])).toEqual(told);
    expect(jsonLines((await h.cli(args)).stdout)).toEqual([]);
  });

  it('a long-running watch with a failing --exec reports it, keeps the state moving and goes on watching', async () => {
    const state = join(dir, 'exec-long.json');
    const ticket = unusedTicket(h);
    const { r, clock, done } = await startWatch(h, { view: 'all-tickets', state, exec: 'cat > /dev/null; exit 7' });
    retitle(h, ticket.id, 'Hook down, watch on');
    await clock.next();
    expect(r.stderr()).toBe(`warning: --exec failed (exit 7) for changed #${ticket.id}; watching goes on\n`);
    const kept = JSON.parse(await readFile(state, 'utf8')) as { tickets: { id: number; title: string }[] };
    expect(kept.tickets.find((t) => t.id === ticket.id)?.title).toBe('Hook down, watch on');
    expect(clock.waits).toHaveLength(2);
    r.abort.abort('SIGTERM');
    await expect(done).rejects.toBeInstanceOf(InterruptedError);
  });

  it('tkt watch ID... tells a new conversation entry as replied', async () => {
    const ticket = unusedTicket(h);
    const { r, clock, done } = await startWatch(h, { ids: [String(ticket.id)] });
    expect((await h.cli(['reply', String(ticket.id), '--message', 'On its way'])).code).toBe(0);
    await clock.next();
    const events = jsonLines(r.stdout());
    expect(events.map((event) => event.event)).toContain('replied');
    expect(events.find((event) => event.event === 'replied')).toMatchObject({ id: ticket.id, changes: {}, replies: [{ kind: expect.any(String) as string }] });
    r.abort.abort('SIGTERM');
    await expect(done).rejects.toBeInstanceOf(InterruptedError);
  });

  it("tkt watch ID... names a reply's kind in tkt show's words", async () => {
    const requesterOf = (t: { creatorId: string }) => h.sandbox.state.users.find((user) => user.id === t.creatorId);
    const ticket = unusedTicket(h, (t) => !t.locked && t.ticketStatusId === 1 && requesterOf(t)?.username !== undefined);
    const requester = requesterOf(ticket)!;
    const { r, clock, done } = await startWatch(h, { ids: [String(ticket.id)] }, {});
    expect((await h.cli(['reply', String(ticket.id), '--as-requester', requester.username, '--subject', 'S', '--message', 'Still broken'])).code).toBe(0);
    await clock.next();
    expect(r.stdout()).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d #${ticket.id} replied: .+ \\(Reply from requester\\)\\n$`));
    const shown = await h.cli(['show', String(ticket.id)]);
    expect(shown.stdout).toContain('Reply from requester');
    r.abort.abort('SIGTERM');
    await expect(done).rejects.toBeInstanceOf(InterruptedError);
  });

  it('says a transient failure once, keeps polling, says the recovery, and ends at a 401 with exit 4', async () => {
    let answer: number | undefined;
    const server = await startFrontServer(h, (req, res) => {
      if (answer === undefined || req.method !== 'POST' || req.url !== '/api/TicketsApi') return false;
      // Retry-After: 0 keeps the client's own retries instant.
      res.writeHead(answer, { 'retry-after': '0', 'content-type': 'text/plain' }).end('down');
      return true;
    });
    try {
      const ticket = unusedTicket(h);
      const oldTitle = ticket.title;
      const { r, clock, done } = await startWatch(h, { view: 'all-tickets' }, { globals: { json: true }, env: frontEnv(h, server) });
      answer = 503;
      await clock.next();
      await clock.next();
      expect(r.stderr().match(/warning: cannot poll: .*503.*retrying until it works\n/g)).toHaveLength(1);
      expect(clock.waits.slice(1).every((ms) => ms < 60_000)).toBe(true);
      answer = undefined;
      retitle(h, ticket.id, 'After the outage');
      await clock.next();
      expect(r.stderr()).toMatch(/polling again after 2 failed polls\n$/);
      expect(jsonLines(r.stdout())).toMatchObject([{ event: 'changed', id: ticket.id, changes: { title: [oldTitle, 'After the outage'] } }]);
      answer = 401;
      wakeOnly(clock);
      const error: unknown = await done.then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(exitCodeOf(error)).toBe(4);
    } finally {
      await server.close();
    }
  });

  it('a poll answered 200 with a cut-off body is a passing failure: said once, retried, the recovery said', async () => {
    let cut = false;
    const server = await startFrontServer(h, (req, res) => {
      if (!cut || req.method !== 'POST' || req.url !== '/api/TicketsApi') return false;
      // A flaky link's answer: the status and headers came whole, the JSON did not.
      res.writeHead(200, { 'content-type': 'application/json' }).end('[{"ticketId": 1, "title": "Print');
      return true;
    });
    try {
      const ticket = unusedTicket(h);
      const oldTitle = ticket.title;
      const { r, clock, done } = await startWatch(h, { view: 'all-tickets' }, { globals: { json: true }, env: frontEnv(h, server) });
      cut = true;
      await clock.next();
      await clock.next();
      expect(r.stderr().match(/warning: cannot poll: unusable answer \(HTTP 200\): POST .*retrying until it works\n/g)).toHaveLength(1);
      expect(clock.waits.slice(1).every((ms) => ms < 60_000)).toBe(true);
      cut = false;
      retitle(h, ticket.id, 'After the cut');
      await clock.next();
      expect(r.stderr()).toMatch(/polling again after 2 failed polls\n$/);
      expect(jsonLines(r.stdout())).toMatchObject([{ event: 'changed', id: ticket.id, changes: { title: [oldTitle, 'After the cut'] } }]);
      r.abort.abort('SIGINT');
      wakeOnly(clock);
      await expect(done).rejects.toBeInstanceOf(InterruptedError);
    } finally {
      await server.close();
    }
  });

  it('a SIGTERM while a poll waits for a page that would fail gives the poll up: no failure said, no retry waited for', async () => {
    let failing = false;
    let signalNow: (() => void) | undefined;
    const server = await startFrontServer(h, (req, res) => {
      if (!failing || req.method !== 'POST' || req.url !== '/api/TicketsApi') return false;
      // The signal comes while the page is at the service; its answer would be a failure (Retry-After: 0 keeps the client's own retries instant).
      signalNow?.();
      res.writeHead(503, { 'retry-after': '0', 'content-type': 'text/plain' }).end('down');
      return true;
    });
    try {
      const { r, clock, done } = await startWatch(h, { view: 'all-tickets' }, { globals: { json: true }, env: frontEnv(h, server) });
      failing = true;
      signalNow = () => r.abort.abort('SIGTERM');
      wakeOnly(clock);
      await expect(done).rejects.toBeInstanceOf(InterruptedError);
      // The baseline's interval only: no backoff was waited for after the signal.
      expect(clock.waits).toEqual([60_000]);
      // The read was given up at the signal: no failure of it to say, and no retry promised.
      expect(r.stderr()).toBe('');
    } finally {
      await server.close();
    }
  });

  it('a SIGTERM while a poll reads gives the poll up at once: nothing told, nothing more sent, --state as it was for the next run to tell', async () => {
    let hold: (() => void) | undefined;
    let held: (() => void) | undefined;
    const heldNow = new Promise<void>((resolve) => (held = resolve));
    const server = await startFrontServer(h, () => false, {
      gate: (req) =>
        hold === undefined && req.method === 'POST' && req.url === '/api/TicketsApi' && armed
          ? new Promise<void>((resolve) => {
              hold = resolve;
              held?.();
            })
          : Promise.resolve(),
    });
    let armed = false;
    try {
      const state = join(dir, 'signal.json');
      const ticket = unusedTicket(h);
      const oldTitle = ticket.title;
      const { r, clock, done } = await startWatch(h, { view: 'all-tickets', state }, { globals: { json: true }, env: frontEnv(h, server) });
      retitle(h, ticket.id, 'Changed before the signal');
      armed = true;
      wakeOnly(clock);
      await heldNow;
      const beforeSignal = server.requests.length;
      r.abort.abort('SIGTERM');
      // Ends without the page's answer: a read changes nothing, so nothing is waited for.
      await expect(done).rejects.toBeInstanceOf(InterruptedError);
      hold?.();
      expect([r.stdout(), r.stderr()]).toEqual(['', '']);
      expect(server.requests.slice(beforeSignal)).toEqual([]);
      const kept = JSON.parse(await readFile(state, 'utf8')) as { tickets: { id: number; title: string }[] };
      expect(kept.tickets.find((t) => t.id === ticket.id)?.title).toBe(oldTitle);
      // Nothing lost: the next run tells the change that poll would have told.
      const next = await h.cli(['--json', 'watch', '--once', '--view', 'all-tickets', '--state', state], { env: frontEnv(h, server) });
      expect(next.code, next.stderr).toBe(0);
      expect(jsonLines(next.stdout)).toMatchObject([{ event: 'changed', id: ticket.id, changes: { title: [oldTitle, 'Changed before the signal'] } }]);
    } finally {
      await server.close();
    }
  });

  it('a SIGTERM while the first poll reads a page (tkt watch in a CI job): no request after it, exit 143 saying so, no wait promised', async () => {
    // The page is answered after the signal: the walk asks for no other page (nor walks again).
    const args = ['--json', 'watch', '--view', 'my-open-tickets', '--interval', '10'];
    const result = await stoppedAt(h, args, requestTo('POST', '/api/TicketsApi'), 'SIGTERM');
    expect(result.sentAfterSignal).toEqual([]);
    expect(result).toMatchObject({ code: 143, stdout: '', stderr: 'error: stopped by SIGTERM\n', exits: [] });
  });

  it('tkt watch ID... stopped while a ticket is read: the tickets after it are not read, exit 143', async () => {
    // Only read: any three tickets.
    const [first, ...others] = h.sandbox.state.tickets.filter((ticket) => !ticket.isDeleted).slice(0, 3);
    const args = ['--json', 'watch', String(first!.id), ...others.map((ticket) => String(ticket.id))];
    const result = await stoppedAt(h, args, requestTo('GET', `/api/TicketsApi/${first!.id}`), 'SIGTERM');
    expect(result.sentAfterSignal).toEqual([]);
    expect(result).toMatchObject({ code: 143, stdout: '', stderr: 'error: stopped by SIGTERM\n' });
  });

  it('--once stopped by SIGTERM while its poll reads: ends at once without the answer, tells nothing, leaves --state for the next run', async () => {
    const state = join(dir, 'once-signal.json');
    const args = ['--json', 'watch', '--once', '--view', 'all-tickets', '--state', state];
    const ticket = unusedTicket(h);
    const oldTitle = ticket.title;
    // The baseline through the same service and login: the state file records both.
    const baseline = async (env: Record<string, string>) => {
      expect(await h.cli(args, { env })).toMatchObject({ code: 0, stdout: '' });
      retitle(h, ticket.id, 'Changed before the cron run');
    };
    // The page is never answered: the run ends without it.
    const result = await stoppedAt(h, args, requestTo('POST', '/api/TicketsApi'), 'SIGTERM', { before: baseline, answered: false });
    expect(result).toMatchObject({ code: 143, stdout: '', stderr: 'error: stopped by SIGTERM\n', sentAfterSignal: [] });
    const kept = JSON.parse(await readFile(state, 'utf8')) as { tickets: { id: number; title: string }[] };
    // As the baseline left it: the next run tells the change.
    expect(kept.tickets.find((t) => t.id === ticket.id)?.title).toBe(oldTitle);
  });

  it('at a terminal, says once on stderr what it watches and how to stop; never in a pipe, with -q, --json or --once', async () => {
    const live = h.sandbox.state.tickets.filter((t) => !t.isDeleted).length;
    const atTerminal = await startWatch(h, { view: 'all-tickets', interval: '30', status: 'open' }, { tty: true });
    const open = h.sandbox.state.tickets.filter((t) => !t.isDeleted && t.ticketStatusId === 1).length;
    expect(atTerminal.r.stderr()).toBe(`watching the view all-tickets --status open (${open} tickets) every 30 s; Ctrl-C to stop\n`);
    await atTerminal.clock.next();
    expect(atTerminal.r.stderr()).toBe(`watching the view all-tickets --status open (${open} tickets) every 30 s; Ctrl-C to stop\n`);
    atTerminal.r.abort.abort('SIGINT');
    await expect(atTerminal.done).rejects.toBeInstanceOf(InterruptedError);
    const ticket = unusedTicket(h);
    const given = await startWatch(h, { ids: [String(ticket.id)] }, { tty: true });
    expect(given.r.stderr()).toBe(`watching the ticket #${ticket.id} every 60 s; Ctrl-C to stop\n`);
    given.r.abort.abort('SIGINT');
    await expect(given.done).rejects.toBeInstanceOf(InterruptedError);
    expect(live).toBeGreaterThan(open);

    for (const runOptions of [{}, { tty: true, globals: { quiet: true } }, { tty: true, globals: { json: true } }]) {
      const quiet = await startWatch(h, { view: 'all-tickets' }, runOptions);
      expect(quiet.r.stderr()).toBe('');
      quiet.r.abort.abort('SIGINT');
      await expect(quiet.done).rejects.toBeInstanceOf(InterruptedError);
    }
    const once = await h.context({ tty: true });
    await run({ view: 'all-tickets', once: true, state: join(dir, 'announce.json') }, once.ctx);
    expect(once.stderr()).toBe('');
  });

  it('--once with neither --state nor --initial says at a terminal that it can tell nothing, and how to see changes; scripts see nothing new', async () => {
    const note = 'the first poll only sets the starting point: use --state FILE to see changes across runs, or --initial\n';
    const atTerminal = await h.context({ tty: true });
    await run({ view: 'all-tickets', once: true }, atTerminal.ctx);
    expect(atTerminal.stdout()).toBe('');
    expect(atTerminal.stderr()).toBe(note);
    // stdout to a pipe (| jq) with stderr at the terminal: a person still reads stderr.
    const piped = await h.context({ tty: true, globals: { json: true } });
    await run({ view: 'all-tickets', once: true }, await withIO(piped.ctx, { ...piped.ctx.io, stdoutIsTTY: false }));
    expect(piped.stderr()).toBe(note);

    const silent = [
      { run: {}, options: {} },
      { run: { tty: true, globals: { quiet: true } }, options: {} },
      { run: { tty: true }, options: { initial: true } },
      { run: { tty: true }, options: { state: join(dir, 'once-note.json') } },
    ];
    for (const { run: runOptions, options } of silent) {
      const r = await h.context(runOptions);
      await run({ view: 'all-tickets', once: true, ...options }, r.ctx);
      expect(r.stderr()).toBe('');
    }
  });

  it('--notify rings and sends OSC 9 at a terminal only', async () => {
    const ticket = unusedTicket(h);
    const atTerminal = await h.context({ tty: true });
    await run({ ids: [String(ticket.id)], once: true, initial: true, notify: true }, atTerminal.ctx);
    expect(atTerminal.stdout()).toContain(`\x07\x1b]9;tkt: #${ticket.id} added: `);
    const piped = await h.context({});
    await run({ ids: [String(ticket.id)], once: true, initial: true, notify: true }, piped.ctx);
    expect(piped.stdout()).not.toContain('\x1b]9;');
    expect(piped.stdout()).toContain(`#${ticket.id} added: `);
  });

  it('--notify only rings at a dumb terminal (TERM=dumb), which would show the OSC 9 escape as text', async () => {
    const ticket = unusedTicket(h);
    const dumb = await h.context({ tty: true });
    await run({ ids: [String(ticket.id)], once: true, initial: true, notify: true }, await withIO(dumb.ctx, { ...dumb.ctx.io, cursorControl: false }));
    expect(dumb.stdout()).toContain(`\x07`);
    expect(dumb.stdout()).not.toContain('\x1b');
    expect(dumb.stdout()).toContain(`#${ticket.id} added: `);
  });
});
