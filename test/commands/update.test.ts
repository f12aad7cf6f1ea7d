import { describe, expect, it, vi } from 'vitest';
import { run } from '../../src/commands/update.js';
import { exitCodeOf } from '../../src/errors.js';
import { loginAs, type Harness } from '../helpers/harness.js';
import type { ScriptedAnswer } from '../helpers/prompter.js';
import { useTimeZone } from '../helpers/time-zone.js';
import { formatDate } from '../../src/output/time.js';
import { frontEnv, routeCount, sendsNothing, startFrontServer, ticketById, useHarness, userId } from '../helpers/sandbox-state.js';

const UPDATE = 'POST /api/TicketsApi/update/{id}';

// 'overwrite': the sandbox clears every optional field absent from the update form, as a
// server binding a full model would; only a full read-modify-write keeps them.
let h: Harness;
useHarness({ sandbox: { updateMode: 'overwrite' }, profiles: ['viewer'] }, (harness) => (h = harness));

/** A fresh ticket with every updatable field set, so any field the update loses shows. */
async function fullTicket(): Promise<number> {
  const result = await h.cli([
    '-q',
    'create',
    '--title',
    'Full ticket',
    '--description',
    'd',
    '--requester',
    'aberg',
    '--site',
    'Harbour Depot',
    '--department',
    'Finance',
    '--status',
    'Open',
    '--priority',
    'Medium',
    '--category',
    'Network',
    '--subcategory',
    'VPN',
    '--item',
    'FortiClient',
    '--group',
    'Network Team',
    '--level',
    'Tier 2',
    '--client',
    'Fabrikam',
    '--assignee',
    'tech',
    '--service',
    '4',
    '--impact',
    '2',
    '--urgency',
    '3',
  ]);
  expect(result.stderr).toBe('');
  return Number(result.stdout);
}

describe('tkt update', () => {
  it('changes only the named field; every other field survives an overwriting server', async () => {
    const id = await fullTicket();
    const before = { ...ticketById(h, id) };
    const result = await h.cli(['update', String(id), '--status', 'In Progress']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // It said "Updated ticket #N", where every other change (and update's own "nothing changed") says "✓ #N ...".
    expect(result.stdout).toBe(`✓ #${id} updated\n`);
    const after = ticketById(h, id);
    expect(after.ticketStatusId).toBe(2);
    for (const key of [
      'siteId',
      'departmentId',
      'ticketPriorityId',
      'ticketCategoryId',
      'ticketSubCategoryId',
      'itemId',
      'groupId',
      'tierLevelId',
      'clientId',
      'creatorId',
      'assignedUser',
      'dueDate',
    ] as const) {
      expect(after[key], key).toEqual(before[key]);
    }
    expect(after.assignedUser).toBe(userId(h, 'tech'));
    expect(after.creatorId).toBe(userId(h, 'aberg'));
  });

  it('changes several fields at once, and the requester only when --requester is given', async () => {
    const id = await fullTicket();
    const result = await h.cli([
      '-q',
      'update',
      String(id),
      '--requester',
      'Peter Novak',
      '--assignee',
      '@me',
      '--site',
      'remote',
      '--due',
      '2030-01-15T10:00Z',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(ticketById(h, id)).toMatchObject({ creatorId: userId(h, 'pnovak'), assignedUser: userId(h, 'admin'), siteId: 3, groupId: 2, ticketCategoryId: 3 });
  });

  it('keeps the due date the user named when the priority changes too (the SLA would replace it)', async () => {
    const id = await fullTicket();
    const before = routeCount(h, UPDATE);
    const result = await h.cli(['update', String(id), '--priority', 'High', '--due', '2030-02-01T09:30Z']);
    expect(result.code, result.stderr).toBe(0);
    expect(ticketById(h, id)).toMatchObject({ ticketPriorityId: 3, dueDate: '2030-02-01T09:30:00.000Z' });
    // Priority first (the service recomputes the due date), then the due date.
    expect(routeCount(h, UPDATE) - before).toBe(2);
  });

  it('a new priority alone on a ticket with no due date: says the service set one', async () => {
    // It said "moved its due date from none to ...".
    const id = await fullTicket();
    ticketById(h, id).dueDate = null;
    const result = await h.cli(['update', String(id), '--priority', 'Critical']);
    expect(result.code, result.stderr).toBe(0);
    const now = new Date(ticketById(h, id).dueDate!);
    expect(result.stderr).toBe(`warning: ticket #${id}: the service set its due date to ${formatDate(now)} (the SLA of the new priority)\n`);
  });

  it('a new priority alone: warns, with -q too, that the service moved the due date (its SLA), naming the command that puts it back', async () => {
    // It printed only "Updated ticket #N", and the due date set before was gone.
    const id = await fullTicket();
    expect((await h.cli(['update', String(id), '--due', '2030-12-20T09:00Z'])).code).toBe(0);
    const dry = await h.cli(['update', String(id), '--priority', 'Critical', '--dry-run']);
    expect(dry.stderr).toBe('the service may recompute the due date from the SLA of the new priority; --due keeps one\n');
    const result = await h.cli(['-q', 'update', String(id), '--priority', 'Critical']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    const now = new Date(ticketById(h, id).dueDate!);
    expect(now.toISOString()).not.toBe('2030-12-20T09:00:00.000Z');
    expect(result.stderr).toBe(
      `warning: ticket #${id}: the service moved its due date from ${formatDate(new Date('2030-12-20T09:00Z'))} to ${formatDate(now)} (the SLA of the new priority); to keep the old one, run "tkt update ${id} --due 2030-12-20T09:00:00.000Z"\n`,
    );
    // A change that leaves the priority leaves the due date: nothing to say.
    expect((await h.cli(['update', String(id), '--status', 'In Progress'])).stderr).toBe('');
  });

  it('sends nothing when the ticket has every value given already, names and IDs alike, and says so as assign and reopen do', async () => {
    // It sent the whole update all the same, printed "Updated ticket #N", and said on stderr, with
    // no "note:", "ticket #N has every value given already: nothing changed"; --json had no note.
    const id = await fullTicket();
    expect((await h.cli(['update', String(id), '--due', '2030-12-20T09:00Z'])).code).toBe(0);
    const before = { ...ticketById(h, id) };
    const updates = routeCount(h, UPDATE);
    const note = 'already has every value given, nothing changed';
    // Names in another case, a username, a full name, an ID, the status (sent only as a change),
    // the type by name, the due date written in another zone: each resolved to what the ticket holds.
    const held = [
      ['--priority', 'medium'],
      ['--site', 'Harbour Depot'],
      ['--requester', 'aberg'],
      ['--assignee', 'Tom Tech'],
      ['--group', String(before.groupId)],
      ['--status', 'open'],
      ['--type', 'ticket'],
      ['--due', '2030-12-20T10:00+01:00'],
    ].flat();
    expect(await h.cli(['update', String(id), ...held])).toMatchObject({ code: 0, stdout: `✓ #${id} ${note}\n`, stderr: '' });
    const json = await h.cli(['--json', 'update', String(id), '--priority', 'Medium']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ id, ok: true, note });
    expect(await h.cli(['-q', 'update', String(id), '--priority', 'Medium'])).toMatchObject({ code: 0, stdout: '', stderr: '' });
    // A priority and a due date it holds: nothing either, though a new priority sends its due date apart.
    expect((await h.cli(['update', String(id), '--priority', 'Medium', '--due', '2030-12-20T09:00Z'])).stdout).toBe(`✓ #${id} ${note}\n`);
    expect(routeCount(h, UPDATE)).toBe(updates);
    expect(ticketById(h, id)).toEqual(before);
  });

  it('--dry-run of values the ticket has says that nothing would be sent, as assign --dry-run does', async () => {
    // It printed the whole update it would send, no field marked [changed].
    const id = await fullTicket();
    const note = 'already has every value given, nothing changed';
    const dry = await h.cli(['update', String(id), '--priority', 'Medium', '--status', 'Open', '--dry-run']);
    expect(dry).toMatchObject({ code: 0, stdout: `dry run: #${id} ${note} (nothing would be sent)\n`, stderr: '' });
    const json = await h.cli(['--json', 'update', String(id), '--priority', 'Medium', '--dry-run']);
    expect(JSON.parse(json.stdout)).toEqual({ id, dryRun: true, note });
  });

  it('sends the update as asked when a value given differs, or is one the ticket does not show (impact, service, urgency)', async () => {
    const id = await fullTicket();
    const updates = routeCount(h, UPDATE);
    // The ticket the service returns has no impact: the one given cannot be known to be held.
    expect(await h.cli(['update', String(id), '--impact', '2'])).toMatchObject({ code: 0, stdout: `✓ #${id} updated\n`, stderr: '' });
    // One value held, one not: the update is sent whole, as before.
    expect(await h.cli(['update', String(id), '--priority', 'Medium', '--level', 'Tier 3'])).toMatchObject({ code: 0, stdout: `✓ #${id} updated\n` });
    expect(ticketById(h, id)).toMatchObject({ ticketPriorityId: 2, tierLevelId: 3 });
    expect(routeCount(h, UPDATE) - updates).toBe(2);
  });

  it('a relative due date is a change a second later, though it names nearly the time the ticket holds', async () => {
    const id = await fullTicket();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      expect((await h.cli(['update', String(id), '--due', '+4h'])).code).toBe(0);
      const first = ticketById(h, id).dueDate;
      vi.setSystemTime(Date.now() + 1000);
      expect((await h.cli(['update', String(id), '--due', '+4h'])).stdout).toBe(`✓ #${id} updated\n`);
      expect(Date.parse(ticketById(h, id).dueDate!) - Date.parse(first!)).toBe(1000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a due date set 4 hours ahead reads "in 4h" in tkt show seconds later, not "in 3h"', async () => {
    const id = await fullTicket();
    // Only the clock of Date is stopped and moved: the requests run on real timers.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      expect((await h.cli(['update', String(id), '--due', '+4h'])).code).toBe(0);
      vi.setSystemTime(Date.now() + 5000);
      const shown = await h.cli(['show', String(id)]);
      expect(shown.stdout).toMatch(/^Due:\s+\d{4}-\d\d-\d\d \d\d:\d\d \(in 4h\)$/m);
    } finally {
      vi.useRealTimers();
    }
  });

  it('when the service keeps its own due date, hints the update of the due date alone, in the profile used', async () => {
    const id = await fullTicket();
    await loginAs(h.sandbox, h.configDir, 'admin', 'v');
    // The second update, the due date's, is answered but not done: the SLA's date stays.
    let updates = 0;
    const front = await startFrontServer(h, (req, res) => {
      if (req.method !== 'POST' || !req.url?.startsWith('/api/TicketsApi/update/') || ++updates < 2) return false;
      res.writeHead(204).end();
      return true;
    });
    try {
      const result = await h.cli(['update', String(id), '--priority', 'High', '--due', '2030-02-01T09:30Z', '--profile', 'v'], { env: frontEnv(h, front) });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`hint: try "tkt update ${id} --due 2030-02-01T09:30:00.000Z --profile v" alone;`);
    } finally {
      await front.close();
    }
  });

  it('reads the ticket back, and fails naming what it holds when another writer undoes the change twice', async () => {
    const id = await fullTicket();
    const ticket = ticketById(h, id);
    // Another writer's whole-form update, made after each of tkt's, puts back the old priority.
    const old = ticket.ticketPriorityId;
    let updates = 0;
    let undone = 0;
    const front = await startFrontServer(h, () => false, {
      gate: async (req) => {
        if (req.method === 'POST' && req.url === `/api/TicketsApi/update/${id}`) updates++;
        else if (req.method === 'GET' && req.url === `/api/TicketsApi/${id}` && undone < updates) {
          ticket.ticketPriorityId = old;
          undone = updates;
        }
      },
    });
    try {
      const before = routeCount(h, UPDATE);
      const result = await h.cli(['update', String(id), '--priority', 'high'], { env: frontEnv(h, front) });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe('error: changed by someone else meanwhile: priority is now Medium, not high; run it again\n');
      // Sent once more from a fresh read before failing.
      expect(routeCount(h, UPDATE) - before).toBe(2);
    } finally {
      await front.close();
    }
  });

  it('--dry-run shows the full form with the changes marked and sends no update', async () => {
    const id = await fullTicket();
    const before = routeCount(h, UPDATE);
    const result = await h.cli(['update', String(id), '--priority', 'critical', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`dry run: would send POST /api/TicketsApi/update/${id} (nothing was sent)`);
    expect(result.stdout).toMatch(/TicketPriorityId:\s+4 \(Critical\)\s+\[changed\]/);
    expect(result.stdout).toMatch(/SiteId:\s+2\n/);
    expect(result.stdout).toMatch(new RegExp(`CreatorId:\\s+${userId(h, 'aberg')}\\n`));
    expect(routeCount(h, UPDATE)).toBe(before);
    expect(ticketById(h, id).ticketPriorityId).toBe(2);
  });

  it("--dry-run marks [changed] only the fields whose value differs from the ticket's", async () => {
    const id = await fullTicket();
    // Priority, status, site and assignee as the ticket has them; only the level differs.
    const result = await h.cli([
      'update',
      String(id),
      '--priority',
      'medium',
      '--status',
      'Open',
      '--site',
      'Harbour Depot',
      '--assignee',
      'tech',
      '--level',
      'Tier 3',
      '--dry-run',
    ]);
    expect(result.code).toBe(0);
    const marked = result.stdout.split('\n').filter((line) => line.endsWith('[changed]'));
    expect(marked).toHaveLength(1);
    expect(marked[0]).toMatch(/TierLevelId:\s+3 \(Tier 3\)\s+\[changed\]/);
    expect(result.stdout).toMatch(/TicketPriorityId:\s+2 \(Medium\)\n/);
  });

  it('prints a JSON object with --json', async () => {
    const id = await fullTicket();
    const result = await h.cli(['--json', 'update', String(id), '--level', 'Tier 3']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id, ok: true });
    expect(ticketById(h, id).tierLevelId).toBe(3);
  });

  // docs/service.md 4.4: the update form requires CreatorId, which the read-modify-write sends back as the ticket holds it.
  it('refuses to update a ticket that shows no requester before sending it (exit 2), and sends it with --requester', async () => {
    const id = await fullTicket();
    ticketById(h, id).creatorId = '';
    const before = routeCount(h, UPDATE);
    for (const dryRun of [[], ['--dry-run']]) {
      const refused = await h.cli(['update', String(id), '--priority', 'high', ...dryRun]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        `error: ticket #${id} shows no requester, and the service's update requires one (CreatorId)\n` +
          `hint: give it one with --requester USER (a user ID, username or full name): tkt update ${id} --requester USER\n`,
      );
    }
    expect(routeCount(h, UPDATE)).toBe(before);

    const given = await h.cli(['update', String(id), '--priority', 'high', '--requester', 'aberg']);
    expect(given.code).toBe(0);
    expect(ticketById(h, id)).toMatchObject({ creatorId: userId(h, 'aberg'), ticketPriorityId: 3 });
  });

  it('with nothing to change is exit 2 and sends nothing', async () => {
    const result = await sendsNothing(h, () => h.cli(['update', '5']));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: nothing to update');
    // The options it lists are wrapped within 80 columns, each line under the first, none lost.
    const lines = result.stderr.trimEnd().split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(lines[1]).toMatch(/^ {2}options: --requester /);
    for (const line of lines.slice(2)) expect(line).toMatch(/^ {4}--/);
    expect(
      lines
        .slice(1)
        .join(' ')
        .split(/\s+/)
        .filter((word) => word.startsWith('--')),
    ).toContain('--due');
  });

  it('with no option at a terminal offers the fields to change, each with what the ticket holds now, then updates only those', async () => {
    const id = await fullTicket();
    const before = ticketById(h, id);
    const keptSite = before.siteId;
    const priorityNow = h.sandbox.state.lookups.priorities.find((priority) => priority.id === before.ticketPriorityId)!.priority;
    const r = await h.context({
      tty: true,
      answers: [
        { kind: 'select', message: 'Field to change', name: 'priority' },
        { kind: 'select', message: `priority (now: ${priorityNow})`, name: 'High' },
        { kind: 'select', message: 'Another field to change?', name: 'due' },
        { kind: 'input', message: 'due', value: '2030-03-01T08:00Z' },
        { kind: 'select', message: 'Another field to change?', name: 'no more: update the ticket' },
        { kind: 'confirm', message: `Update ticket #${id}?`, value: true },
      ],
    });
    await run({ id: String(id), values: {}, dryRun: false }, r.ctx);
    expect(ticketById(h, id)).toMatchObject({ ticketPriorityId: 3, dueDate: '2030-03-01T08:00:00.000Z', siteId: keptSite });

    // Picking nothing changes nothing (exit 2, as without a terminal).
    const none = await h.context({ tty: true, answers: [{ kind: 'select', message: 'Field to change', name: 'none: change nothing' }] });
    await expect(run({ id: String(id), values: {}, dryRun: false }, none.ctx)).rejects.toThrow('nothing to update');
  });

  it('at a terminal, each question starts on what the ticket holds, and Enter keeps it: priority, status, a person, the type, the due date', async () => {
    // The pickers started on their first choice: three Enters lowered a Medium ticket to Low and
    // its SLA pushed the due date back a week.
    const id = await fullTicket();
    expect((await h.cli(['update', String(id), '--due', '2030-12-20T09:00Z'])).code).toBe(0);
    const before = { ...ticketById(h, id) };
    const updates = routeCount(h, UPDATE);
    const r = await h.context({
      tty: true,
      answers: [
        { kind: 'select', message: 'Field to change', name: 'priority' },
        { kind: 'select', message: 'priority (now: Medium)', enter: true },
        { kind: 'select', message: 'Another field to change?', name: 'status' },
        { kind: 'select', message: 'status (now: Open)', enter: true },
        { kind: 'select', message: 'Another field to change?', name: 'assignee' },
        { kind: 'search', message: 'assignee', enter: true },
        { kind: 'select', message: 'Another field to change?', name: 'type' },
        { kind: 'input', message: 'type', enter: true },
        { kind: 'select', message: 'Another field to change?', name: 'due' },
        { kind: 'input', message: 'due', enter: true },
        { kind: 'select', message: 'Another field to change?', name: 'no more: update the ticket' },
      ],
    });
    await run({ id: String(id), values: {}, dryRun: false }, r.ctx);
    r.prompter.assertDone();
    const defaults = Object.fromEntries(r.prompter.asked.filter((p) => p.default !== undefined).map((p) => [p.message.split(/[ :]/)[0], p.default]));
    expect(defaults).toEqual({ priority: 'Medium', status: 'Open', assignee: 'Tom Tech (tech)', type: '1', due: '2030-12-20T09:00:00.000Z' });
    // Every value kept: nothing to ask, nothing sent, and said so.
    expect(routeCount(h, UPDATE)).toBe(updates);
    expect(ticketById(h, id)).toEqual(before);
    expect(r.stdout()).toBe(`✓ #${id} already has every value chosen, nothing changed\n`);
    expect(r.stderr()).toBe('');
  });

  it('at a terminal, shows what will change, old -> new, and asks "Update ticket #ID?" (yes by default) before sending', async () => {
    const id = await fullTicket();
    const before = { ...ticketById(h, id) };
    const updates = routeCount(h, UPDATE);
    const answers = (confirmed: boolean): ScriptedAnswer[] => [
      { kind: 'select', message: 'Field to change', name: 'priority' },
      { kind: 'select', message: 'priority (now: Medium)', name: 'Low' },
      { kind: 'select', message: 'Another field to change?', name: 'status' },
      { kind: 'select', message: 'status (now: Open)', name: 'In Progress' },
      { kind: 'select', message: 'Another field to change?', name: 'site' },
      { kind: 'select', message: 'site (now: Harbour Depot)', enter: true },
      { kind: 'select', message: 'Another field to change?', name: 'no more: update the ticket' },
      { kind: 'confirm', message: `Update ticket #${id}?`, value: confirmed },
    ];
    // Declined: exit 1, nothing sent, the ticket as it was.
    const declined = await h.context({ tty: true, answers: answers(false) });
    const error = await run({ id: String(id), values: {}, dryRun: false }, declined.ctx).catch((caught: unknown) => caught);
    declined.prompter.assertDone();
    expect(exitCodeOf(error)).toBe(1);
    expect((error as Error).message).toBe('cancelled: nothing was changed');
    expect(routeCount(h, UPDATE)).toBe(updates);
    expect(ticketById(h, id)).toEqual(before);
    expect(declined.prompter.asked.at(-1)).toEqual({ kind: 'confirm', message: `Update ticket #${id}?`, default: true });
    // Only what changes, as create's summary lays its fields out; the site kept is not a change.
    expect(declined.stderr()).toBe(
      [
        '',
        '  Status:    Open → In Progress',
        '  Priority:  Medium → Low',
        // Wrapped to the terminal (80 columns), under the margin.
        '  the service may recompute the due date from the SLA of the new priority; a due',
        '  date chosen with it keeps one',
        '',
      ].join('\n'),
    );

    const accepted = await h.context({ tty: true, answers: answers(true) });
    await run({ id: String(id), values: {}, dryRun: false }, accepted.ctx);
    accepted.prompter.assertDone();
    expect(accepted.stdout()).toBe(`✓ #${id} updated\n`);
    expect(ticketById(h, id)).toMatchObject({ ticketPriorityId: 1, ticketStatusId: 2, siteId: before.siteId });
  });

  it('at a terminal, a due date kept with a new priority is sent all the same: the SLA would move it', async () => {
    const id = await fullTicket();
    expect((await h.cli(['update', String(id), '--due', '2030-12-20T09:00Z'])).code).toBe(0);
    const r = await h.context({
      tty: true,
      answers: [
        { kind: 'select', message: 'Field to change', name: 'priority' },
        { kind: 'select', message: 'priority (now: Medium)', name: 'Critical' },
        { kind: 'select', message: 'Another field to change?', name: 'due' },
        { kind: 'input', message: 'due', enter: true },
        { kind: 'select', message: 'Another field to change?', name: 'no more: update the ticket' },
        { kind: 'confirm', message: `Update ticket #${id}?`, enter: true },
      ],
    });
    await run({ id: String(id), values: {}, dryRun: false }, r.ctx);
    const due = formatDate(new Date('2030-12-20T09:00Z'));
    expect(r.stderr()).toBe(['', '  Priority:  Medium → Critical', `  Due:       ${due} (kept)`, ''].join('\n'));
    expect(ticketById(h, id)).toMatchObject({ ticketPriorityId: 4, dueDate: '2030-12-20T09:00:00.000Z' });
  });

  it('on a profile that is not the default, names it in the question, as create and delete do', async () => {
    const id = await fullTicket();
    const r = await h.context({
      tty: true,
      globals: { profile: 'viewer' },
      answers: [
        { kind: 'select', message: 'Field to change', name: 'level' },
        { kind: 'select', message: 'level (now: Tier 2)', name: 'Tier 3' },
        { kind: 'select', message: 'Another field to change?', name: 'no more: update the ticket' },
        { kind: 'confirm', message: `Update ticket #${id} on profile viewer?`, value: false },
      ],
    });
    await expect(run({ id: String(id), values: {}, dryRun: false }, r.ctx)).rejects.toThrow('cancelled: nothing was changed');
    expect(r.stderr()).toBe(['', '  Level:  Tier 2 → Tier 3', ''].join('\n'));
  });

  it('with options at a terminal asks nothing and sends at once, as scripts rely on', async () => {
    const id = await fullTicket();
    const r = await h.context({ tty: true, answers: [] });
    await run({ id: String(id), values: { priority: 'High' }, dryRun: false }, r.ctx);
    expect(r.prompter.asked).toEqual([]);
    expect(ticketById(h, id).ticketPriorityId).toBe(3);
  });

  it('refuses a malformed ID, a bad date and create-only options with exit 2 before any request', async () => {
    const before = h.sandbox.stats.requests;
    const badId = await h.cli(['update', '12a', '--status', 'Open']);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain('invalid ticket ID "12a"');
    // A range, as ID... commands take: update changes one ticket.
    const range = await h.cli(['update', '#1001-1003', '--status', 'Open']);
    expect(range).toMatchObject({ code: 2, stderr: 'error: invalid ticket ID "#1001-1003": update takes one ticket ID, not a range\n' });
    const badDate = await h.cli(['update', '5', '--due', 'tomorrow']);
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain('--due: invalid date "tomorrow"');
    const createOnly = await h.cli(['update', '5', '--title', 'New title']);
    expect(createOnly.code).toBe(2);
    expect(createOnly.stderr).toMatch(/unknown option '--title'/);
    expect(h.sandbox.stats.requests).toBe(before);
  });

  it('is exit 3 when the ticket does not exist, and sends no update', async () => {
    const before = routeCount(h, UPDATE);
    const result = await h.cli(['update', '999999', '--status', 'Open']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^error: /);
    expect(routeCount(h, UPDATE)).toBe(before);
  });

  it('is exit 5 for a user without Tickets.Update and changes nothing', async () => {
    const id = await fullTicket();
    const result = await h.cli(['--profile', 'viewer', 'update', String(id), '--status', 'Pending']);
    expect(result.code).toBe(5);
    expect(ticketById(h, id).ticketStatusId).toBe(1);
  });
});

describe('tkt update of several tickets', () => {
  it('is exit 2 before any request, saying update takes one ticket ID, with the loop that updates each', async () => {
    // Commander's "too many arguments" hinted only the usage line, and "-" was an invalid ticket ID.
    const typed = await sendsNothing(h, () => h.cli(['--profile', 'viewer', 'update', '1028', '#1025', '--status', 'In Progress', '--dry-run']));
    expect(typed).toMatchObject({ code: 2, stdout: '' });
    expect(typed.stderr).toBe(
      [
        `error: too many arguments for 'update'. Expected 1 argument but got 2: "#1025"`,
        `hint: update takes one ticket ID; for several: for id in 1028 '#1025'; do tkt --profile viewer update "$id" --status 'In Progress' --dry-run; done`,
        '(add --help for usage)',
        '',
      ].join('\n'),
    );
    const piped = await sendsNothing(h, () => h.cli(['update', '-', '--priority', 'low', '--profile', 'viewer'], { stdin: '1013\n1014\n' }));
    expect(piped).toMatchObject({ code: 2, stdout: '' });
    expect(piped.stderr).toBe(
      [
        'error: update takes one ticket ID, not "-" (IDs from stdin)',
        `hint: for several, one a line on stdin: ... | while read -r id; do tkt update "$id" --priority low --profile viewer; done`,
        '',
      ].join('\n'),
    );
    // Words after an option's value are still that mistake, not IDs.
    expect((await h.cli(['update', '1028', '--status', 'In', 'Progress'])).stderr).toContain('hint: quote a value with spaces: --status "In Progress"');
  });
});

describe('tkt update --due at a change of the clocks', () => {
  useTimeZone('America/St_Johns');

  it('refuses a local time the clocks skip with exit 2, saying what to type, and changes nothing', async () => {
    const id = await fullTicket();
    const due = ticketById(h, id).dueDate;
    const before = routeCount(h, UPDATE);
    const result = await h.cli(['update', String(id), '--due', '2027-03-14T02:30']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--due: "2027-03-14T02:30" does not exist in America/St_Johns: the clocks go forward from 02:00 to 03:00');
    expect(result.stderr).toContain('use 2027-03-14T03:00 (the first time after the gap) or give the offset (2027-03-14T02:30-03:30');
    expect(routeCount(h, UPDATE)).toBe(before);
    expect(ticketById(h, id).dueDate).toBe(due);
    // The time after the gap is taken as typed; an hour the clocks repeat is its first time.
    expect((await h.cli(['update', String(id), '--due', '2027-03-14T03:00'])).code).toBe(0);
    expect(ticketById(h, id).dueDate).toBe('2027-03-14T05:30:00.000Z');
    expect((await h.cli(['update', String(id), '--due', '2026-11-01T01:30'])).code).toBe(0);
    expect(ticketById(h, id).dueDate).toBe('2026-11-01T04:00:00.000Z');
  });
});
