// `tkt create --dedup-key` against the sandbox: each action, what counts as the key's ticket,
// key validation and dry runs.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { routeCount, sendsNothing, ticketById, useHarness, useTempDir } from '../helpers/sandbox-state.js';

const NEW = 'POST /api/TicketsApi/new';
const REGISTER = 'POST /api/TicketsApi/register';
const REQREPLY = 'POST /api/TicketsApi/reqreply/{id}';
const LIST = 'POST /api/TicketsApi';
const OPEN = 1;
const RESOLVED = 6;

let h: Harness;
let dir: string;
// Seeded tickets enough for a search to span several pages of 100.
useHarness({ sandbox: { seedTickets: 260 } }, (harness) => (h = harness));
useTempDir('tkt-dedup-', (path) => (dir = path));

/** `tkt create --integration` of one occurrence, as a CI job sends it. */
const occurrence = (key: string, ...extra: string[]) =>
  h.cli(['create', '--integration', '--title', 'Build failed', '--description', 'log tail', '--requester', 'ci-bot', '--dedup-key', key, ...extra]);

const createdIdOf = (stdout: string): number => Number(/^created #(\d+)\n$/.exec(stdout)?.[1]);
const ticketsTitled = (title: string) => h.sandbox.state.tickets.filter((t) => t.title === title);

describe('tkt create --dedup-key', () => {
  it('creates a ticket whose title ends with [KEY] when none has the key', async () => {
    const result = await occurrence('job-created');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const id = createdIdOf(result.stdout);
    expect(ticketById(h, id).title).toBe('Build failed [job-created]');
  });

  it('does not add the key twice to a title that already ends with it', async () => {
    const result = await h.cli(['create', '--integration', '--title', 'Deploy broke [job-once]', '--description', 'd', '--requester', 'ci-bot', '--dedup-key', 'job-once']);
    expect(ticketById(h, createdIdOf(result.stdout)).title).toBe('Deploy broke [job-once]');
  });

  it('adds a repeat to the open ticket as exactly one requester reply, creating nothing', async () => {
    const first = createdIdOf((await occurrence('job-updated')).stdout);
    const [creates, replies] = [routeCount(h, NEW), routeCount(h, REQREPLY)];
    const log = join(dir, 'build.log');
    await writeFile(log, 'error: tests failed\n');
    const again = await occurrence('job-updated', '--attach', log);
    expect(again).toMatchObject({ code: 0, stdout: `updated #${first}\n`, stderr: '' });
    expect(routeCount(h, NEW)).toBe(creates);
    expect(routeCount(h, REQREPLY)).toBe(replies + 1);
    const reply = h.sandbox.state.conversations.filter((c) => c.ticketId === first && c.type === 'RequesterReply');
    expect(reply).toMatchObject([{ subject: 'Re: Build failed [job-updated]', message: 'log tail' }]);
    expect(h.sandbox.state.attachments.filter((a) => a.ticketId === first).map((a) => a.fileName)).toEqual(['build.log']);
  });

  it('adds the repeat to the oldest open ticket when several have the key', async () => {
    const oldest = createdIdOf((await occurrence('job-two-open')).stdout);
    const newer = createdIdOf((await h.cli(['create', '--integration', '--title', 'Build failed [job-two-open]', '--description', 'd', '--requester', 'ci-bot'])).stdout.replace('Created ticket', 'created'));
    expect(newer).toBeGreaterThan(oldest);
    expect((await occurrence('job-two-open')).stdout).toBe(`updated #${oldest}\n`);
  });

  it('skips with --on-existing skip, sending no reply', async () => {
    const first = createdIdOf((await occurrence('job-skipped')).stdout);
    const replies = routeCount(h, REQREPLY);
    expect(await occurrence('job-skipped', '--on-existing', 'skip')).toMatchObject({ code: 0, stdout: `skipped #${first}\n` });
    expect(routeCount(h, REQREPLY)).toBe(replies);
  });

  it('re-opens a resolved ticket with --reopen, and creates a new one without it', async () => {
    const first = createdIdOf((await occurrence('job-reopened')).stdout);
    expect((await h.cli(['resolve', String(first), '--details', 'fixed'])).code).toBe(0);
    expect(ticketById(h, first).ticketStatusId).toBe(RESOLVED);
    const reopened = await occurrence('job-reopened', '--reopen');
    expect(reopened).toMatchObject({ code: 0, stdout: `reopened #${first}\n` });
    expect(ticketById(h, first).ticketStatusId).toBe(OPEN);

    expect((await h.cli(['resolve', String(first), '--details', 'fixed again'])).code).toBe(0);
    const fresh = createdIdOf((await occurrence('job-reopened')).stdout);
    expect(fresh).not.toBe(first);
  });

  it('prints the ID alone with -q and {id, action, key} with --json, in every action', async () => {
    const quiet = await h.cli(['-q', 'create', '--integration', '--title', 'T', '--description', 'd', '--requester', 'ci-bot', '--dedup-key', 'job-output']);
    const id = Number(quiet.stdout.trim());
    expect(quiet.stdout).toBe(`${id}\n`);
    const json = await h.cli(['--json', 'create', '--integration', '--title', 'T', '--description', 'd', '--requester', 'ci-bot', '--dedup-key', 'job-output']);
    expect(JSON.parse(json.stdout)).toEqual({ id, action: 'updated', key: 'job-output' });
    const skipped = await h.cli(['--json', 'create', '--integration', '--title', 'T', '--description', 'd', '--requester', 'ci-bot', '--dedup-key', 'job-output', '--on-existing', 'skip']);
    expect(JSON.parse(skipped.stdout)).toEqual({ id, action: 'skipped', key: 'job-output' });
  });

  it('works with register too, replying as the requester given by name', async () => {
    const args = ['create', '--title', 'Nightly failed', '--description', 'd', '--requester', 'aberg', '--site', '1', '--department', '1', '--status', 'Open', '--dedup-key', 'job-register'];
    const first = createdIdOf((await h.cli(args)).stdout);
    expect((await h.cli(args)).stdout).toBe(`updated #${first}\n`);
    expect(routeCount(h, REGISTER)).toBeGreaterThan(0);
  });
});

describe('which tickets carry the key', () => {
  it('does not take a ticket whose key merely starts with this key', async () => {
    const longer = createdIdOf((await occurrence('job-prefix-2')).stdout);
    const result = await occurrence('job-prefix');
    expect(createdIdOf(result.stdout)).not.toBe(longer);
    expect(ticketsTitled('Build failed [job-prefix]')).toHaveLength(1);
  });

  it('does not take a ticket with the key in the middle of its title', async () => {
    await h.cli(['create', '--integration', '--title', 'Build [job-middle] failed', '--description', 'd', '--requester', 'ci-bot']);
    const result = await occurrence('job-middle');
    expect(result.stdout).toMatch(/^created #\d+\n$/);
  });

  it('ignores a deleted ticket of the key', async () => {
    const first = createdIdOf((await occurrence('job-deleted')).stdout);
    expect((await h.cli(['delete', String(first), '--yes'])).code).toBe(0);
    const again = createdIdOf((await occurrence('job-deleted')).stdout);
    expect(again).not.toBe(first);
  });

  it('finds the ticket on a later page of a search that matches many tickets', async () => {
    // The oldest open ticket carries the key; 230 newer ones only mention it: it is on page 3 of 100.
    const tickets = [...h.sandbox.state.tickets].filter((t) => !t.isDeleted).sort((a, b) => a.createdOn.localeCompare(b.createdOn));
    const keyed = tickets.find((t) => t.ticketStatusId === OPEN)!;
    tickets.splice(tickets.indexOf(keyed), 1);
    keyed.title = 'Disk full [job-pages]';
    for (const [index, ticket] of tickets.filter((t) => t.createdOn > keyed.createdOn).slice(0, 230).entries()) ticket.title = `job-pages noise ${index}`;
    void h.sandbox.state;
    const lists = routeCount(h, LIST);
    const result = await occurrence('job-pages', '--on-existing', 'skip');
    expect(result).toMatchObject({ code: 0, stdout: `skipped #${keyed.id}\n` });
    expect(routeCount(h, LIST) - lists).toBeGreaterThanOrEqual(3);
  });
});

describe('the key and dry runs', () => {
  it.each([[''], ['has space'], ['[bracket]'], ['x'.repeat(101)], ['semi;colon']])('refuses the key %j with exit 2, sending nothing', async (key) => {
    const result = await sendsNothing(h, () => occurrence(key));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: invalid --dedup-key');
  });

  it('takes a key of 100 characters of letters, digits and ._:/-', async () => {
    const key = `gl:group/project.job_1-${'a'.repeat(77)}`;
    expect(key).toHaveLength(100);
    expect((await occurrence(key)).stdout).toMatch(/^created #\d+\n$/);
  });

  it('refuses --on-existing and --reopen without --dedup-key', async () => {
    const result = await sendsNothing(h, () => h.cli(['create', '--integration', '--title', 'T', '--description', 'd', '--requester', 'ci-bot', '--reopen']));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--reopen goes with --dedup-key KEY');
  });

  it('looks up and says the action in a dry run, changing nothing', async () => {
    const none = await h.cli(['--json', 'create', '--integration', '--title', 'T', '--description', 'd', '--requester', 'ci-bot', '--dedup-key', 'job-dry', '--dry-run']);
    expect(JSON.parse(none.stdout)).toMatchObject({ dryRun: true, action: 'created', id: null, key: 'job-dry', method: 'POST', path: '/api/TicketsApi/new' });
    const first = createdIdOf((await occurrence('job-dry')).stdout);
    const [creates, replies, version] = [routeCount(h, NEW), routeCount(h, REQREPLY), h.sandbox.state.conversations.length];
    const human = await occurrence('job-dry', '--dry-run');
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`dry run: key job-dry: would update #${first}\ndry run: would send POST /api/TicketsApi/reqreply/${first} (nothing was sent)\n`);
    const skip = await occurrence('job-dry', '--dry-run', '--on-existing', 'skip');
    expect(skip.stdout).toBe(`dry run: key job-dry: would skip #${first} (nothing would be sent)\n`);
    expect([routeCount(h, NEW), routeCount(h, REQREPLY), h.sandbox.state.conversations.length]).toEqual([creates, replies, version]);
  });
});
