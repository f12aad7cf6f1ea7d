// `tkt create --dedup-key` against the sandbox: each action, what counts as the key's ticket,
// key validation and dry runs.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/commands/create.js';
import { BY_ID, integrationCreateArgs, validCreateArgs, type FieldFlags } from '../helpers/create-args.js';
import type { Harness } from '../helpers/harness.js';
import {
  changeInDoubtStderr,
  frontEnv,
  holdUntilTogether,
  requestTo,
  routeCount,
  sendsNothing,
  startFrontServer,
  stoppedAt,
  ticketById,
  useHarness,
  useTempDir,
} from '../helpers/sandbox-state.js';

const NEW = 'POST /api/TicketsApi/new';
const REGISTER = 'POST /api/TicketsApi/register';
const REQREPLY = 'POST /api/TicketsApi/reqreply/{id}';
const LIST = 'POST /api/TicketsApi';
const GET = 'GET /api/TicketsApi/{id}';
const OPEN = 1;
const RESOLVED = 6;
const CLOSED = 7;

let h: Harness;
let dir: string;
// Seeded tickets enough for a search to span several pages of 100.
useHarness({ sandbox: { seedTickets: 260 } }, (harness) => (h = harness));
useTempDir('tkt-dedup-', (path) => (dir = path));

/** `tkt create --integration` as a CI job sends it (requester ci-bot, the log's tail as description), with `fields`. */
const ciJob = (fields: FieldFlags = {}) => ['create', ...integrationCreateArgs({ requester: 'ci-bot', description: 'log tail', ...fields })];
const occurrenceArgs = (key: string, ...extra: string[]) => [...ciJob({ 'dedup-key': key }), ...extra];
/** `tkt create --integration` of one occurrence, as a CI job sends it. */
const occurrence = (key: string, ...extra: string[]) => h.cli(occurrenceArgs(key, ...extra));

/** `tkt create` of the register form (not --integration), with a dedup key. */
const registerArgs = (title: string, key: string): string[] => ['create', ...validCreateArgs({ ...BY_ID, title, 'dedup-key': key })];
/** The warning of a login without Tickets.Close, before it creates a ticket of `key`. */
const warnedAhead = (key: string) =>
  `warning: this login may not close tickets (no Tickets.Close): should another job create a ticket of key ${key} at the same moment, ` +
  'the newer cannot be closed as a duplicate, and both stay open\n';
const createdIdOf = (stdout: string): number => Number(/^created #(\d+)\n$/.exec(stdout)?.[1]);
const ticketsTitled = (title: string) => h.sandbox.state.tickets.filter((t) => t.title === title);

/**
 * `tkt create` run by `jobs` CI jobs at the same moment, as `user`: every create is held until all
 * are in flight, so each job's look-up finds none and each creates.
 */
async function createTogether(args: string[], jobs: number, user = 'admin'): Promise<Awaited<ReturnType<Harness['cli']>>[]> {
  const front = await startFrontServer(
    h,
    () => false,
    holdUntilTogether(jobs, (req) => req.url === '/api/TicketsApi/new'),
  );
  try {
    const env = { TKT_URL: front.url, TKT_TOKEN: h.sandbox.issueToken(user) };
    return await Promise.all(Array.from({ length: jobs }, () => h.cli(args, { env })));
  } finally {
    await front.close();
  }
}

describe('tkt create --dedup-key', () => {
  it('creates a ticket whose title ends with [KEY] when none has the key', async () => {
    const result = await occurrence('job-created');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const id = createdIdOf(result.stdout);
    expect(ticketById(h, id).title).toBe('Build failed [job-created]');
  });

  it('does not add the key twice to a title that already ends with it', async () => {
    const result = await h.cli(ciJob({ title: 'Deploy broke [job-once]', 'dedup-key': 'job-once' }));
    expect(ticketById(h, createdIdOf(result.stdout)).title).toBe('Deploy broke [job-once]');
  });

  it('finds its own ticket when --requester names the integration user by full name, as the create sends its username', async () => {
    // The create sent ci-bot, the look-up compared "CI Bot": each run opened another ticket.
    const byName = (key: string) => h.cli(['create', ...integrationCreateArgs({ requester: 'CI Bot', description: 'log tail', 'dedup-key': key })]);
    const first = createdIdOf((await byName('job-by-name')).stdout);
    expect(ticketById(h, first).creatorId).toBe(h.sandbox.state.users.find((u) => u.username === 'ci-bot')!.id);
    expect(await byName('job-by-name')).toMatchObject({ code: 0, stdout: `updated #${first}\n`, stderr: '' });
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
    const newer = createdIdOf((await h.cli(ciJob({ title: 'Build failed [job-two-open]' }))).stdout.replace('Created ticket', 'created'));
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
    const quiet = await h.cli(['-q', ...ciJob({ title: 'T', 'dedup-key': 'job-output' })]);
    const id = Number(quiet.stdout.trim());
    expect(quiet.stdout).toBe(`${id}\n`);
    const json = await h.cli(['--json', ...ciJob({ title: 'T', 'dedup-key': 'job-output' })]);
    expect(JSON.parse(json.stdout)).toEqual({ id, action: 'updated', key: 'job-output' });
    const skipped = await h.cli(['--json', ...ciJob({ title: 'T', 'dedup-key': 'job-output' }), '--on-existing', 'skip']);
    expect(JSON.parse(skipped.stdout)).toEqual({ id, action: 'skipped', key: 'job-output' });
  });

  it('works with register too, replying as the requester given by name', async () => {
    const args = registerArgs('Nightly failed', 'job-register');
    const first = createdIdOf((await h.cli(args)).stdout);
    expect((await h.cli(args)).stdout).toBe(`updated #${first}\n`);
    expect(routeCount(h, REGISTER)).toBeGreaterThan(0);
  });
});

describe('--reopen and the duplicates tkt closed', () => {
  it('re-opens the ticket the race kept, not the newer one it closed as a duplicate, with two reads more', async () => {
    const closes = routeCount(h, 'POST /api/TicketsApi/close/{id}');
    for (const result of await createTogether(occurrenceArgs('job-raced'), 3)) expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(routeCount(h, 'POST /api/TicketsApi/close/{id}')).toBe(closes + 2);
    const [kept, ...duplicates] = ticketsTitled('Build failed [job-raced]').map((t) => t.id);
    expect(duplicates).toHaveLength(2);
    expect(duplicates.map((id) => ticketById(h, id).ticketStatusId)).toEqual([CLOSED, CLOSED]);
    expect((await h.cli(['resolve', '--dedup-key', 'job-raced', '--details', 'green'])).code).toBe(0);
    expect(ticketById(h, kept!).ticketStatusId).toBe(RESOLVED);

    const [reads, replies] = [routeCount(h, GET), h.sandbox.state.conversations.filter((c) => c.ticketId === kept).length];
    const dry = await occurrence('job-raced', '--reopen', '--dry-run');
    expect(dry.stdout).toContain(`dry run: key job-raced: would reopen #${kept}\n`);
    const reopened = await occurrence('job-raced', '--reopen');
    expect(reopened).toMatchObject({ code: 0, stdout: `reopened #${kept}\n`, stderr: '' });
    // The list carries neither close comments nor the requester's ID: the newest settled ticket's
    // detail is read, and the kept one's to learn its requester, once each per run.
    expect(routeCount(h, GET)).toBe(reads + 4);
    expect(ticketById(h, kept!).ticketStatusId).toBe(OPEN);
    expect(duplicates.map((id) => ticketById(h, id).ticketStatusId)).toEqual([CLOSED, CLOSED]);
    const added = h.sandbox.state.conversations.filter((c) => c.ticketId === kept).slice(replies);
    expect(added).toMatchObject([{ type: 'RequesterReply', subject: 'Re: Build failed [job-raced]', message: 'log tail' }]);
  });

  it('passes over a duplicate whose original no longer carries the key, to the latest other settled ticket', async () => {
    const closedByHand = createdIdOf((await occurrence('job-orphan')).stdout);
    expect((await h.cli(['close', String(closedByHand), '--comments', 'Fixed upstream, see the Duplicate of #1 discussion'])).code).toBe(0);
    const unrelated = createdIdOf((await occurrence('job-orphan-other')).stdout);
    const orphan = Number(/#(\d+)/.exec((await h.cli(ciJob({ title: 'Build failed [job-orphan]' }))).stdout)?.[1]);
    expect(orphan).toBeGreaterThan(closedByHand);
    expect(
      (await h.cli(['close', String(orphan), '--comments', `Duplicate of #${unrelated} (the same failure, key job-orphan, reported at the same moment)`])).code,
    ).toBe(0);

    const reopened = await occurrence('job-orphan', '--reopen');
    expect(reopened).toMatchObject({ code: 0, stdout: `reopened #${closedByHand}\n`, stderr: '' });
    expect([ticketById(h, closedByHand).ticketStatusId, ticketById(h, orphan).ticketStatusId]).toEqual([OPEN, CLOSED]);
  });

  it('creates a ticket when the only settled ones of the key are duplicates of tickets without it', async () => {
    const unrelated = createdIdOf((await occurrence('job-lone-other')).stdout);
    const lone = Number(/#(\d+)/.exec((await h.cli(ciJob({ title: 'Build failed [job-lone]' }))).stdout)?.[1]);
    expect((await h.cli(['close', String(lone), '--comments', `Duplicate of #${unrelated}`])).code).toBe(0);
    const result = await occurrence('job-lone', '--reopen');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(createdIdOf(result.stdout)).toBeGreaterThan(lone);
    expect(ticketById(h, lone).ticketStatusId).toBe(CLOSED);
  });
});

describe('at a terminal', () => {
  it('asks for what is missing, confirms, then adds to the open ticket of the key', async () => {
    const first = createdIdOf((await h.cli(registerArgs('Printer jams', 'job-tty'))).stdout);
    const asked = await h.context({
      tty: true,
      answers: [
        { kind: 'select', message: 'Department', name: 'Sales' },
        { kind: 'select', message: 'Status', name: 'Open' },
        { kind: 'confirm', message: 'Create this ticket, or add it to the open ticket of key job-tty?', value: true },
      ],
    });
    await run(
      { values: { title: 'Printer jams', description: 'again', requester: 'aberg', site: 'Remote' }, integration: false, dedupKey: 'job-tty' },
      asked.ctx,
    );
    asked.prompter.assertDone();
    expect(asked.stdout()).toBe(`updated #${first}\n`);
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
    await h.cli(ciJob({ title: 'Build [job-middle] failed' }));
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
    // Only the requester's own tickets of the key count.
    keyed.creatorId = h.sandbox.state.users.find((u) => u.username === 'ci-bot')!.id;
    for (const [index, ticket] of tickets
      .filter((t) => t.createdOn > keyed.createdOn)
      .slice(0, 230)
      .entries())
      ticket.title = `job-pages noise ${index}`;
    void h.sandbox.state;
    const lists = routeCount(h, LIST);
    const result = await occurrence('job-pages', '--on-existing', 'skip');
    expect(result).toMatchObject({ code: 0, stdout: `skipped #${keyed.id}\n` });
    expect(routeCount(h, LIST) - lists).toBeGreaterThanOrEqual(3);
  });
});

describe("another requester's ticket with the key in its title", () => {
  // Keys are predictable (gh:owner/repo/job): anyone may title a ticket of their own with one. A
  // CI occurrence (its description, its logs) must never land on that ticket (README, CI: one ticket per failure).
  const decoyOf = async (key: string, requester = 'aberg'): Promise<number> =>
    Number(/#(\d+)/.exec((await h.cli(ciJob({ requester, title: `Need help with printer [${key}]` }))).stdout)?.[1]);
  const conversationOf = (id: number) => h.sandbox.state.conversations.filter((c) => c.ticketId === id).length;
  const attachmentsOf = (id: number) => h.sandbox.state.attachments.filter((a) => a.ticketId === id).length;

  it.each([[[]], [['--on-existing', 'skip']], [['--reopen']]])('is neither updated, skipped to nor given way to (%j): a ticket is created', async (extra) => {
    const key = `gh:acme/shop/test${extra.join('')}`;
    const decoy = await decoyOf(key);
    const [said, files] = [conversationOf(decoy), attachmentsOf(decoy)];
    const log = join(dir, 'build.log');
    await writeFile(log, 'SECRET\n');
    const result = await occurrence(key, '--attach', log, ...extra);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const created = createdIdOf(result.stdout);
    expect(created).toBeGreaterThan(decoy);
    expect(ticketById(h, created).ticketStatusId).toBe(OPEN);
    expect([ticketById(h, decoy).ticketStatusId, conversationOf(decoy), attachmentsOf(decoy)]).toEqual([OPEN, said, files]);
    // After creating, the look-up for an older ticket of the key (another job's) passed over the
    // decoy too: ours stays open. The next occurrence goes to ours, not to the older decoy.
    expect((await occurrence(key, ...extra)).stdout).toBe(`${extra[1] === 'skip' ? 'skipped' : 'updated'} #${created}\n`);
  });

  it('is not re-opened by --reopen when resolved', async () => {
    const decoy = await decoyOf('gh:acme/shop/settled');
    expect((await h.cli(['resolve', String(decoy), '--details', 'printer fixed'])).code).toBe(0);
    const result = await occurrence('gh:acme/shop/settled', '--reopen');
    expect(createdIdOf(result.stdout)).toBeGreaterThan(decoy);
    expect(ticketById(h, decoy).ticketStatusId).toBe(RESOLVED);
  });

  it('counts for register too, compared by user ID', async () => {
    const decoy = await decoyOf('job-register-decoy', 'pnovak');
    const result = await h.cli(registerArgs('Nightly failed', 'job-register-decoy'));
    expect(createdIdOf(result.stdout)).toBeGreaterThan(decoy);
    expect(ticketById(h, decoy).ticketStatusId).toBe(OPEN);
  });
});

describe('the key and dry runs', () => {
  it.each([
    ['', '--dedup-key is empty'],
    ['has space', 'invalid --dedup-key'],
    ['[bracket]', 'invalid --dedup-key'],
    ['x'.repeat(101), 'invalid --dedup-key'],
    ['semi;colon', 'invalid --dedup-key'],
  ])('refuses the key %j with exit 2, sending nothing', async (key, says) => {
    const result = await sendsNothing(h, () => occurrence(key));
    expect(result.code).toBe(2);
    // An empty value is named as every option's is (README: Commands).
    expect(result.stderr).toContain(`error: ${says}`);
  });

  // "gh:$GITHUB_REPOSITORY/$GITHUB_JOB" with the variables unset: every job's failure would share one ticket.
  // "$PROJECT-$JOB" and "ci-$RUN" with the variables unset ("-", "ci-"): a review found them taken.
  it.each(['gh:/', 'build:', 'a//b', '/x', ':x', 'gh:acme/', 'gh::x', '.', 'ci-', 'build.', '_x', 'x_'])(
    'refuses the key %j, a part of it empty, with exit 2, sending nothing',
    async (key) => {
      const result = await sendsNothing(h, () => occurrence(key));
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`error: --dedup-key ${JSON.stringify(key)} has an empty part`);
      expect(result.stderr).toContain('hint: a variable in it is probably unset');
    },
  );

  // `--dedup-key $KEY -q` with KEY unset made "-q" the key, and stdout "created #N" where the job read a bare ID.
  it.each(['-', '--', '-q', '-x'])('refuses the key %j, a dash where the key should be, with exit 2, sending nothing', async (key) => {
    const result = await sendsNothing(h, () => occurrence(key, '--dry-run'));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: --dedup-key ${JSON.stringify(key)} starts with "-": its value is probably missing`);
    expect(result.stderr).toContain('hint: a variable given unquoted and unset leaves --dedup-key the next word: quote it (--dedup-key "$KEY")');
  });

  it.each(['--help', '--quiet'])('refuses the key %j, a long option taken as the value, with exit 2, sending nothing', async (key) => {
    const result = await sendsNothing(h, () => occurrence(key, '--dry-run'));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: --dedup-key took ${JSON.stringify(key)} as its value, which is one of this command's options`);
  });

  it('refuses a key with an empty part in a dry run too', async () => {
    const result = await sendsNothing(h, () => occurrence('gh:/', '--dry-run'));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: --dedup-key "gh:/" has an empty part');
  });

  it('takes a key of 100 characters of letters, digits and ._:/-', async () => {
    const key = `gl:group/project.job_1-${'a'.repeat(77)}`;
    expect(key).toHaveLength(100);
    expect((await occurrence(key)).stdout).toMatch(/^created #\d+\n$/);
  });

  it('says that the dedup suffix was counted when the keyed title is too long, sending nothing', async () => {
    const title = 'x'.repeat(250);
    const result = await sendsNothing(h, () => h.cli(ciJob({ title, 'dedup-key': 'disk-full-web01' })));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: --title: the title with its dedup suffix " [disk-full-web01]" is 268 characters, the service accepts at most 255');
    expect(result.stderr).toContain('at most 237 characters');
  });

  it('refuses --on-existing and --reopen without --dedup-key', async () => {
    const result = await sendsNothing(h, () => h.cli([...ciJob({ title: 'T' }), '--reopen']));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--reopen goes with --dedup-key KEY');
  });

  it('looks up and says the action in a dry run, changing nothing', async () => {
    const none = await h.cli(['--json', ...ciJob({ title: 'T', 'dedup-key': 'job-dry' }), '--dry-run']);
    expect(JSON.parse(none.stdout)).toMatchObject({ dryRun: true, action: 'created', id: null, key: 'job-dry', method: 'POST', path: '/api/TicketsApi/new' });
    const first = createdIdOf((await occurrence('job-dry')).stdout);
    const [creates, replies, version] = [routeCount(h, NEW), routeCount(h, REQREPLY), h.sandbox.state.conversations.length];
    const human = await occurrence('job-dry', '--dry-run');
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(
      `dry run: key job-dry: would update #${first}\ndry run: would send POST /api/TicketsApi/reqreply/${first} (nothing was sent)\n`,
    );
    const skip = await occurrence('job-dry', '--dry-run', '--on-existing', 'skip');
    expect(skip.stdout).toBe(`dry run: key job-dry: would skip #${first} (nothing would be sent)\n`);
    expect([routeCount(h, NEW), routeCount(h, REQREPLY), h.sandbox.state.conversations.length]).toEqual([creates, replies, version]);
  });
  it('-q in a dry run prints the ID of the ticket it would add to (or skip, or reopen), nothing when it would create one', async () => {
    const none = await h.cli(occurrenceArgs('job-dry-q', '--dry-run', '-q'));
    expect(none).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const id = createdIdOf((await occurrence('job-dry-q')).stdout);
    for (const extra of [[], ['--on-existing', 'skip']]) {
      expect(await h.cli(occurrenceArgs('job-dry-q', '--dry-run', '-q', ...extra))).toMatchObject({ code: 0, stdout: `${id}\n`, stderr: '' });
    }
    ticketById(h, id).ticketStatusId = RESOLVED;
    expect(await h.cli(occurrenceArgs('job-dry-q', '--dry-run', '-q', '--reopen'))).toMatchObject({ code: 0, stdout: `${id}\n`, stderr: '' });
    expect(await h.cli(occurrenceArgs('job-dry-q', '--dry-run', '-q'))).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});

describe('a service that does more than the sandbox', () => {
  it('ignores a ticket the list marks deleted', async () => {
    // The sandbox leaves deleted tickets out of its lists; a service may list them, marked.
    const ghost = { ticketId: 999_999, subject: 'Build failed [job-ghost]', status: 'Open', isDeleted: true, createdOn: '2020-01-01T00:00:00Z' };
    const front = await startFrontServer(h, (req, res, body) => {
      if (req.method !== 'POST' || req.url !== '/api/TicketsApi') return false;
      void fetch(`${h.sandbox.url}/api/TicketsApi`, {
        method: 'POST',
        headers: { authorization: req.headers.authorization!, 'content-type': 'application/json' },
        body,
      }).then(async (passed) => {
        const items = (await passed.json()) as unknown[];
        const first = (JSON.parse(body.toString()) as { page: number }).page === 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(first ? [ghost, ...items] : items));
      });
      return true;
    });
    try {
      const result = await h.cli(ciJob({ 'dedup-key': 'job-ghost' }), { env: frontEnv(h, front) });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/^created #\d+\n$/);
    } finally {
      await front.close();
    }
  });

  it('cannot close its duplicate: adds the occurrence to the older ticket, whose ID both jobs print (-q), and says why there are two', async () => {
    // Two jobs at once with a token that may not close: both create, the newer cannot give way.
    const args = [...ciJob({ 'dedup-key': 'job-no-close' }), '-q'];
    const results = await createTogether(args, 2, 'viewer');
    const ids = ticketsTitled('Build failed [job-no-close]').map((t) => t.id);
    expect(ids).toHaveLength(2);
    const [older, newer] = [Math.min(...ids), Math.max(...ids)];
    const ahead = warnedAhead('job-no-close');
    const loser = results.find((r) => r.code !== 0)!;
    expect(results.find((r) => r.code === 0)).toMatchObject({ stdout: `${older}\n`, stderr: ahead });
    expect(loser.code).toBe(5);
    // A script's ticket-id is the ticket every later run of the key updates.
    expect(loser.stdout).toBe(`${older}\n`);
    expect(loser.stderr).toContain(`${ahead}warning: #${newer} duplicates #${older} (key job-no-close, created at the same moment) and could not be closed\n`);
    const replies = h.sandbox.state.conversations.filter((c) => c.type === 'RequesterReply' && c.ticketId === older);
    expect(replies).toHaveLength(1);
    expect(ticketById(h, newer).ticketStatusId).not.toBe(CLOSED);
  });

  it('refuses --dedup-key with --from', async () => {
    const result = await sendsNothing(h, () => h.cli(['create', '--from', join(dir, 'rows.csv'), '--dedup-key', 'k']));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--from cannot be combined with --dedup-key');
  });
});

describe('a login that sees only its own tickets (Tickets.OnlyPrivate)', () => {
  it("warns that the look-up cannot find other logins' tickets of the key", async () => {
    // As two CI systems, or two people, with different logins report the same failure.
    const key = 'only-own';
    const other = await h.cli(occurrenceArgs(key), { env: { TKT_TOKEN: h.sandbox.issueToken('ci-bot') } });
    expect(other).toMatchObject({ code: 0, stderr: '' });
    const own = await h.cli(occurrenceArgs(key), { env: { TKT_TOKEN: h.sandbox.issueToken('private') } });
    // The duplicate tkt cannot help (the service shows it nothing of the other login), but says so.
    expect(own).toMatchObject({ code: 0, stdout: expect.stringMatching(/^created #\d+\n$/) as string });
    expect(own.stderr).toBe(
      'warning: this login sees only its own tickets (Tickets.OnlyPrivate): the look-up of key only-own ' +
        `misses any other ticket of the key, so this may open a second one\n${warnedAhead(key)}`,
    );
  });

  it('says nothing for a login that sees every ticket', async () => {
    const result = await h.cli(occurrenceArgs('sees-all'), { env: { TKT_TOKEN: h.sandbox.issueToken('ci-bot') } });
    expect(result).toMatchObject({ code: 0, stderr: '' });
  });
});

describe('a login that may not close tickets (no Tickets.Close)', () => {
  it('is warned before it creates a ticket of the key, even in a dry run; not when it adds to the open one', async () => {
    const env = { TKT_TOKEN: h.sandbox.issueToken('viewer') };
    const dry = await h.cli(occurrenceArgs('no-close-ahead', '--dry-run', '-q'), { env });
    expect(dry).toMatchObject({ code: 0, stdout: '', stderr: warnedAhead('no-close-ahead') });
    const first = await h.cli(occurrenceArgs('no-close-ahead'), { env });
    expect(first).toMatchObject({ code: 0, stdout: expect.stringMatching(/^created #\d+\n$/) as string, stderr: warnedAhead('no-close-ahead') });
    const again = await h.cli(occurrenceArgs('no-close-ahead'), { env });
    expect(again).toMatchObject({ code: 0, stdout: `updated #${createdIdOf(first.stdout)}\n`, stderr: '' });
  });
});

// The create or the reply was sent and never answered (docs/cli.md section 8): in doubt, as tkt create says it.
describe('tkt create --dedup-key whose request was sent and never answered', () => {
  async function occurrenceUnanswered(key: string, path: RegExp) {
    const server = await startFrontServer(h, (req) => req.method === 'POST' && path.test(req.url ?? ''));
    try {
      const result = await h.cli([...occurrenceArgs(key), '--timeout', '0.5'], { env: frontEnv(h, server) });
      expect(server.requests.filter((request) => request.method === 'POST' && path.test(request.url))).toHaveLength(1);
      return { ...result, url: server.url };
    } finally {
      await server.close();
    }
  }

  it('says a create is in doubt, and that running it again is safe with the key', async () => {
    const result = await occurrenceUnanswered('job-unanswered-create', /^\/api\/TicketsApi\/new$/);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: in doubt \\(the service may have created it\\)\n` +
          `  request timed out after [^:]+: POST ${result.url}/api/TicketsApi/new\n` +
          `hint: running this again is safe: --dedup-key job-unanswered-create adds to the ticket if it was created\n$`,
      ),
    );
  });

  it('says the reply to the open ticket of the key is in doubt, naming the ticket', async () => {
    const first = await occurrence('job-unanswered-reply');
    const id = createdIdOf(first.stdout);
    const result = await occurrenceUnanswered('job-unanswered-reply', /^\/api\/TicketsApi\/reqreply\//);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(changeInDoubtStderr(id, `${result.url}/api/TicketsApi/reqreply/${id}`));
  });
});

// How CI cancels a job (docs/cli.md section 8): no new request once stopped, what was sent is
// awaited and told, and a ticket the service created is never missing from the output.
describe('tkt create --dedup-key stopped by SIGTERM', () => {
  const ciBot = () => ({ TKT_TOKEN: h.sandbox.issueToken('ci-bot') });
  const list = requestTo('POST', '/api/TicketsApi');
  const create = requestTo('POST', '/api/TicketsApi/new');

  it('during the look-up, which never answers: gives it up at once (a read), creates nothing, exit 143', async () => {
    const result = await stoppedAt(h, [...occurrenceArgs('job-stopped-lookup'), '-q', '--timeout', '60'], list, 'SIGTERM', {
      env: ciBot(),
      counted: create,
      answered: false,
    });
    expect(result).toMatchObject({
      code: 143,
      stdout: '',
      stderr: 'error: stopped by SIGTERM\n',
      sent: 0,
      exits: [],
    });
    expect(ticketsTitled('Build failed [job-stopped-lookup]')).toEqual([]);
  });

  it('while the service creates the ticket: waits for it, prints its ID (-q), looks no further, exit 143', async () => {
    const result = await stoppedAt(h, [...occurrenceArgs('job-stopped-create'), '-q'], create, 'SIGTERM', { env: ciBot(), counted: list });
    const created = ticketsTitled('Build failed [job-stopped-create]');
    expect(created).toHaveLength(1);
    // One look-up before the create; none after it (the race's check is a new request).
    expect(result).toMatchObject({
      code: 143,
      stdout: `${created[0]!.id}\n`,
      stderr: 'stopped by SIGTERM: waiting up to 30s for 1 request in flight; another SIGTERM gives up\nerror: stopped by SIGTERM\n',
      sent: 1,
      exits: [],
    });
  });

  it('while it replies to the open ticket of the key: waits for it, says updated #ID, exit 143', async () => {
    const id = createdIdOf((await occurrence('job-stopped-reply')).stdout);
    const result = await stoppedAt(h, occurrenceArgs('job-stopped-reply'), requestTo('POST', `/api/TicketsApi/reqreply/${id}`), 'SIGTERM', { env: ciBot() });
    expect(result).toMatchObject({
      code: 143,
      stdout: `updated #${id}\n`,
      stderr: 'stopped by SIGTERM: waiting up to 30s for 1 request in flight; another SIGTERM gives up\nerror: stopped by SIGTERM\n',
      exits: [],
    });
    expect(ticketsTitled('Build failed [job-stopped-reply]')).toHaveLength(1);
  });

  it('and the answer to the create never comes: in doubt, safe to run again, then the stop', async () => {
    const result = await stoppedAt(h, [...occurrenceArgs('job-stopped-doubt'), '--timeout', '0.5'], create, 'SIGTERM', { env: ciBot(), answered: false });
    expect(result.code).toBe(143);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^stopped by SIGTERM: waiting up to 0.5s for 1 request in flight; another SIGTERM gives up\nerror: in doubt \\(the service may have created it\\)\n  request timed out after [^:]+: POST \\S+/api/TicketsApi/new\n` +
          `hint: running this again is safe: --dedup-key job-stopped-doubt adds to the ticket if it was created\nerror: stopped by SIGTERM\n$`,
      ),
    );
  });
});
