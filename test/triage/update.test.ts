// Triage's transitions, as data: a state and an event in, the next state and the effects it asks
// for out. No sandbox, no screen, no waiting: the results of effects are events made here.
import { describe, expect, it } from 'vitest';
import { ApiError, OperationError, UsageError } from '../../src/errors.js';
import type { Effect, TriageEvent } from '../../src/triage/events.js';
import type { TriageState } from '../../src/triage/state.js';
import type { TemplatePurpose } from '../../src/triage/picker.js';
import { start, type Step } from '../../src/triage/update.js';
import type { KeyPress } from '../../src/util/terminal-input.js';
import { run, stepsAfter as then } from '../helpers/triage-steps.js';

const SIZE = { columns: 80, rows: 24 };
const VIEW = 'MyOpenOrUnassigned';

const item = (id: number, title: string, assignee?: string) => ({ id, title, status: 'Open', priority: 'Normal', requester: 'Rita Requester', assignee });
const ITEMS = [item(1031, 'Mouse double-clicks'), item(1029, 'Printer jams', 'Tom Tech'), item(1023, 'Printer toner low'), item(1015, 'VPN drops')];
const UNASSIGNED = [item(1040, 'Monitor flickers'), item(1041, 'Keyboard sticks')];

const key = (input: string, press: KeyPress = {}): TriageEvent => ({ kind: 'key', input, key: press });
const ENTER = key('', { return: true });
const ESC = key('', { escape: true });
/** Keys typed faster than they are read: one chunk, as the screen passes it on. */
const type = (text: string) => key(text);

/** The answer to r or s's reading of the templates: there are none. */
const noTemplates = (id: number, purpose: TemplatePurpose): TriageEvent => ({ kind: 'templatesRead', id, purpose, names: [] });

/** The answer to s's reading of the ticket: open, as the list has it (`unchanged` says it is resolved). */
const resolveChecked = (id: number): Extract<TriageEvent, { kind: 'resolveChecked' }> => ({
  kind: 'resolveChecked',
  id,
  ticket: ticketOf(id),
  unchanged: undefined,
});
const ticketOf = (id: number) => ITEMS.find((entry) => entry.id === id);

const effects = <K extends Effect['kind']>(step: Step, kind: K) =>
  step.effects.filter((effect): effect is Extract<Effect, { kind: K }> => effect.kind === kind);

const highlighted = (state: TriageState) => state.visible[state.selected]?.id;

/** The default view, loaded. */
const opened = () => run(start(VIEW, SIZE), { kind: 'viewLoaded', token: 1, items: ITEMS });

/** `state` with the highlighted ticket's detail read. */
function withDetail(step: Step): Step {
  const [read] = effects(step, 'readDetail');
  if (read === undefined) throw new Error('no detail read asked for');
  const ticket = { ...ITEMS.find((entry) => entry.id === read.id), description: 'details' };
  return then(step, { kind: 'detailRead', id: read.id, width: read.width, ticket, text: `ID: ${read.id}\n`, generation: read.generation });
}

/** An answer of the service, as the HTTP layer reports it. */
const answer = (method: string, path: string, status: number, serverMessages: string[] = []) =>
  new ApiError({ status, method, url: `http://127.0.0.1:9${path}`, body: undefined, serverMessages });
const notFound = (id: number) => answer('GET', `/api/TicketsApi/${id}`, 404, [`Ticket ${id} was not found.`]);

describe('loading a view', () => {
  it('starts loading the view it opens on', () => {
    const first = start(VIEW, SIZE);
    expect(first.state.loading).toEqual({ token: 1, saysReadAgain: false });
    expect(first.effects).toEqual([{ kind: 'loadView', view: VIEW, token: 1 }]);
  });

  it('shows the tickets, highlights the first and asks for its detail at the screen width', () => {
    const step = opened();
    expect(step.state.loading).toBeUndefined();
    expect(step.state.visible.map((row) => row.id)).toEqual([1031, 1029, 1023, 1015]);
    expect(highlighted(step.state)).toBe(1031);
    expect(effects(step, 'readDetail')).toEqual([{ kind: 'readDetail', id: 1031, width: 80, ticket: undefined, generation: 1 }]);
    expect(step.state.status).toBeUndefined();
  });

  it('drops the answer of a load that a view switch overtook', () => {
    // R reads the view again; before it answers, the user switches to another view.
    const step = then(opened(), key('R'), key('v'), type('unassigned-t'), ENTER);
    expect(effects(step, 'loadView')).toEqual([
      { kind: 'loadView', view: VIEW, token: 2 },
      { kind: 'loadView', view: 'UnassignedTickets', token: 3 },
    ]);
    // The overtaken answer, before or after the one awaited, is dropped.
    const early = then(step, { kind: 'viewLoaded', token: 2, items: ITEMS });
    expect(early.state.loading?.token).toBe(3);
    expect(early.state.rows).toEqual([]);
    for (const answers of [
      [3, 2],
      [2, 3],
    ]) {
      const last = then(step, ...answers.map((token): TriageEvent => ({ kind: 'viewLoaded', token, items: token === 3 ? UNASSIGNED : ITEMS })));
      expect(last.state.view).toBe('UnassignedTickets');
      expect(last.state.rows.map((row) => row.id)).toEqual([1040, 1041]);
      expect(last.state.status?.text ?? '').not.toContain('read again');
    }
  });

  it('filters without regard to accents: "ecran" and "cassee" typed plain find their rows', () => {
    const accented = run(start(VIEW, SIZE), { kind: 'viewLoaded', token: 1, items: [item(1050, 'Écran noir'), item(1051, 'Souris cassée')] });
    expect(then(accented, type('/ecran\r')).state.visible.map((row) => row.id)).toEqual([1050]);
    expect(then(accented, type('/cassee\r')).state.visible.map((row) => row.id)).toEqual([1051]);
  });

  it('says R read the view again, keeping the filter; a switch of view clears it', () => {
    const filtered = then(opened(), type('/printer\r'));
    expect(filtered.state.filter).toBe('printer');
    expect(filtered.state.visible.map((row) => row.id)).toEqual([1029, 1023]);

    const reread = run(filtered, key('R'), { kind: 'viewLoaded', token: 2, items: ITEMS });
    expect(reread.state.filter).toBe('printer');
    expect(reread.state.status).toEqual({ text: '✓ my-open-or-unassigned read again', tone: 'ok' });

    const switched = run(reread, key('v'), type('unassigned-tickets\r'));
    expect(switched.state.filter).toBe('');
    expect(switched.state.rows).toEqual([]);
    const shown = run(switched, { kind: 'viewLoaded', token: 3, items: UNASSIGNED });
    expect(shown.state.visible).toEqual(shown.state.rows);
  });

  it('switches to the view whose name is typed: a whole name or its start before a name that merely holds it', () => {
    for (const [typed, view] of [
      ['unassigned', 'UnassignedTickets'],
      ['overdue', 'OverdueTickets'],
      ['my-overdue', 'MyOverdueTickets'],
      ['all-tickets', 'AllTickets'],
    ] as const) {
      expect(effects(then(opened(), key('v'), type(`${typed}\r`)), 'loadView'), typed).toEqual([{ kind: 'loadView', view, token: 2 }]);
    }
  });

  it('fails the run when the first load fails, and says so when a later one does', () => {
    const error = answer('POST', '/api/TicketsApi', 401);
    const first = run(start(VIEW, SIZE), { kind: 'viewFailed', token: 1, error });
    expect(first.effects.at(-1)).toEqual({ kind: 'fail', error });
    expect(first.state.ended).toBe(true);

    const later = then(opened(), key('v'), type('unassigned-tickets\r'), { kind: 'viewFailed', token: 2, error: answer('POST', '/api/TicketsApi', 500) });
    expect(later.effects.map((effect) => effect.kind)).toEqual(['loadView']);
    expect(later.state.loadFailed).toBe(true);
    expect(later.state.status?.text).toMatch(/^could not load unassigned-tickets: .*HTTP 500/);
  });
});

describe('the detail', () => {
  it('reads each ticket once while the highlight moves', () => {
    const read = withDetail(opened());
    const moved = then(read, key('j'));
    expect(effects(moved, 'readDetail').map((effect) => effect.id)).toEqual([1029]);
    const back = then(withDetail(moved), key('k'), key('j'));
    expect(back.effects).toEqual([]);
  });

  it('renders again, without reading, at a new width', () => {
    const resized = then(withDetail(opened()), { kind: 'resized', columns: 120, rows: 30 });
    expect(effects(resized, 'readDetail')).toEqual([expect.objectContaining({ id: 1031, width: 120, ticket: expect.objectContaining({ id: 1031 }) })]);
  });

  it('shows a failed read until the highlight leaves the ticket, then reads it again when it comes back', () => {
    const failed = then(opened(), { kind: 'detailFailed', id: 1031, width: 80, error: notFound(1031), generation: 1 });
    expect(failed.state.failedRead).toEqual({ id: 1031, error: 'Ticket 1031 was not found. (not found, HTTP 404)' });
    expect(failed.effects).toEqual([]);
    // Anything else happening meanwhile does not read it again.
    expect(then(failed, { kind: 'paste', text: 'x' }).effects).toEqual([]);

    const away = then(failed, key('j'));
    expect(away.state.failedRead).toBeUndefined();
    expect(effects(then(withDetail(away), key('k')), 'readDetail')).toEqual([expect.objectContaining({ id: 1031 })]);
  });

  it('reads a detail that failed again on R, with the view', () => {
    const failed = then(opened(), { kind: 'detailFailed', id: 1031, width: 80, error: notFound(1031), generation: 1 });
    const reread = then(failed, key('R'), { kind: 'viewLoaded', token: 2, items: ITEMS });
    expect(reread.state.failedRead).toBeUndefined();
    expect(effects(reread, 'readDetail')).toEqual([{ kind: 'readDetail', id: 1031, width: 80, ticket: undefined, generation: 2 }]);
  });

  it('drops a detail read before the view was read again', () => {
    const reread = run(opened(), key('R'), { kind: 'viewLoaded', token: 2, items: ITEMS });
    const stale = then(reread, { kind: 'detailRead', id: 1031, width: 80, ticket: ITEMS[0], text: 'old', generation: 1 });
    expect(stale.state.details.size).toBe(0);
  });

  it('asks for nothing while an overlay covers the detail, and for what it then shows once it is closed', () => {
    const covered = then(withDetail(opened()), key('?'), { kind: 'resized', columns: 120, rows: 30 });
    expect(covered.effects).toEqual([]);
    expect(effects(then(covered, key('x')), 'readDetail')).toEqual([expect.objectContaining({ id: 1031, width: 120 })]);
  });
});

describe('actions', () => {
  it('runs one action at a time on the highlighted ticket, and refreshes its row from the ticket read after it', () => {
    const picking = then(withDetail(opened()), key('p'));
    expect(picking.effects).toEqual([{ kind: 'act', id: 1031, action: { kind: 'pickUp' } }]);
    expect(picking.state.status).toEqual({ text: 'picking up #1031…', tone: 'info' });
    const waiting = then(picking, key('m'));
    expect(waiting.effects).toEqual([]);
    expect(waiting.state.status).toEqual({ text: 'picking up #1031… (then 1 more)', tone: 'info' });

    const ticket = { ...ITEMS[0], assignee: { fullName: 'Tom Tech' } };
    const done = then(picking, { kind: 'acted', id: 1031, done: 'picked up #1031', refreshed: { ticket } });
    expect(done.state.running).toBeUndefined();
    expect(done.state.status).toEqual({ text: '✓ picked up #1031', tone: 'ok' });
    expect(done.state.visible[0]?.summary.assignee).toBe('Tom Tech');
    // The detail is rendered from the ticket just read.
    expect(effects(done, 'readDetail')).toEqual([expect.objectContaining({ id: 1031, ticket })]);
  });

  it('says without a tick what an action could not do though nothing failed (w with no browser): the neutral tone', () => {
    const url = 'https://desk.example.com/t/1031';
    const step = then(opened(), key('w'), { kind: 'acted', id: 1031, done: { notDone: `no browser to open it: ${url}` }, refreshed: { ticket: ITEMS[0] } });
    expect(step.state.status).toEqual({ text: `no browser to open it: ${url}`, tone: 'info' });
  });

  it('says the action was done when its row could not be read again', () => {
    const step = then(opened(), key('o'), { kind: 'acted', id: 1031, done: 'reopened #1031 (Open)', refreshed: { error: notFound(1031) } });
    expect(step.state.status?.text).toBe('✓ reopened #1031 (Open); the row could not be refreshed: Ticket 1031 was not found. (not found, HTTP 404)');
  });

  it("shows the service's reason first when an action fails, and stays usable", () => {
    const step = then(opened(), key('m'), { kind: 'actionFailed', id: 1031, error: notFound(1031) });
    expect(step.state.status).toEqual({ text: '✗ marking read #1031: Ticket 1031 was not found. (not found, HTTP 404)', tone: 'error' });
    expect(then(step, key('j')).state.selected).toBe(1);
  });

  it('keeps a reply whose sending failed, and opens the editor with it on the next r', () => {
    const read = withDetail(opened());
    const replying = then(read, key('r'), noTemplates(1031, 'reply'));
    const [first] = effects(replying, 'act');
    expect(first).toEqual({ kind: 'act', id: 1031, action: { kind: 'reply', ticket: read.state.details.get(1031)?.ticket, draft: undefined } });

    const refused = answer('POST', '/api/TicketsApi/reply/1031', 500);
    const failed = then(replying, { kind: 'actionFailed', id: 1031, error: refused, unsent: 'Try turning it off and on.' });
    expect(failed.state.status?.text).toMatch(/^✗ replying to #1031: .*HTTP 500; your reply is kept: r opens it again$/);

    const again = then(failed, key('r'));
    expect(effects(again, 'act')[0]?.action).toMatchObject({ kind: 'reply', draft: 'Try turning it off and on.' });
    const sent = then(again, { kind: 'acted', id: 1031, done: 'replied to #1031 (to rita@example.com)', refreshed: { ticket: ITEMS[0] } });
    // Sent: the draft is gone.
    expect(effects(then(sent, key('r'), noTemplates(1031, 'reply')), 'act')[0]?.action).toMatchObject({ kind: 'reply', draft: undefined });
  });

  it('follows a refused login with the hint any command gives for it: the profile to log in to, or what to do with TKT_TOKEN', () => {
    const prod = (env: Record<string, string> = {}) =>
      run(start(VIEW, SIZE, { login: { shownProfile: 'prod', globals: { profile: 'prod' }, env } }), { kind: 'viewLoaded', token: 1, items: ITEMS });
    const refused = answer('POST', '/api/TicketsApi/resolve/1031', 401);
    const resolving = (step: Step) => then(step, key('s'), resolveChecked(1031), noTemplates(1031, 'resolve'), type('Cable reseated\r'));
    const failed = then(resolving(prod()), { kind: 'actionFailed', id: 1031, error: refused, unsent: 'Cable reseated' });
    // The reason, the hint, then what was kept: the notes stay a draft.
    expect(failed.state.status?.text).toBe(
      '✗ resolving #1031: not authenticated, HTTP 401; run "tkt login --profile prod"; your notes are kept: s opens them again',
    );
    expect(failed.state.drafts.resolution.get(1031)).toBe('Cable reseated');

    // A login from TKT_TOKEN is not read again: logging in would not help, a new run with another token would.
    const fromEnv = then(resolving(prod({ TKT_TOKEN: 'a-token' })), { kind: 'actionFailed', id: 1031, error: refused });
    expect(fromEnv.state.status?.text).toBe(
      '✗ resolving #1031: not authenticated, HTTP 401; the token in TKT_TOKEN was refused: set a valid one, or unset TKT_TOKEN to use the saved login, then start tkt triage again',
    );
    // Other failures have no hint added.
    expect(then(prod(), key('m'), { kind: 'actionFailed', id: 1031, error: notFound(1031) }).state.status?.text).toBe(
      '✗ marking read #1031: Ticket 1031 was not found. (not found, HTTP 404)',
    );
  });

  // A review found triage's w without web-url, and a 403, said what failed but not what fixes it, as the commands do.
  it('follows a refused permission and a missing setting with the hint any command gives: what to ask for, what to set', () => {
    const loaded = run(start(VIEW, SIZE, { login: { shownProfile: 'default', globals: {}, env: {} } }), { kind: 'viewLoaded', token: 1, items: ITEMS });
    const forbidden = answer('POST', '/api/TicketsApi/close/1031', 403);
    expect(then(loaded, key('c'), type('y'), { kind: 'actionFailed', id: 1031, error: forbidden }).state.status?.text).toMatch(
      /^✗ closing #1031: permission denied, HTTP 403; this login lacks the .* permission: ask the service's admin to grant it, or log in as a user who has it$/,
    );
    const noSetting = new UsageError('no web-url setting: tkt does not know where tickets are on the web', { hint: "tkt config set web-url 'https://x/{id}'" });
    expect(then(loaded, key('w'), { kind: 'actionFailed', id: 1031, error: noSetting }).state.status?.text).toBe(
      "✗ opening #1031: no web-url setting: tkt does not know where tickets are on the web; tkt config set web-url 'https://x/{id}'",
    );
  });

  it('says nothing is kept when the editor was closed before a message was written', () => {
    const step = then(opened(), key('r'), noTemplates(1031, 'reply'), { kind: 'actionFailed', id: 1031, error: new Error('interrupted') });
    expect(step.state.status?.text).toBe('✗ replying to #1031: interrupted');
  });

  it('offers the templates for r, the blank text first, typed to filter, and replies with the one picked', () => {
    const read = withDetail(opened());
    const pressed = then(read, key('r'));
    expect(pressed.effects).toEqual([{ kind: 'readTemplates', id: 1031, purpose: 'reply' }]);
    expect(pressed.state.overlay).toBeUndefined();

    const offered = then(pressed, { kind: 'templatesRead', id: 1031, purpose: 'reply', names: ['printer-fixed', 'vpn-reset'] });
    expect(offered.state.overlay).toMatchObject({ kind: 'picker', title: 'Reply to #1031 with', selected: 0 });
    const labels = offered.state.overlay?.kind === 'picker' ? offered.state.overlay.choices.map((choice) => choice.label) : [];
    expect(labels).toEqual(['(no template)', 'printer-fixed', 'vpn-reset']);

    const picked = then(offered, type('vpn'), ENTER);
    expect(picked.state.overlay).toBeUndefined();
    const ticket = read.state.details.get(1031)?.ticket;
    expect(picked.effects).toEqual([{ kind: 'act', id: 1031, action: { kind: 'reply', ticket, draft: undefined, template: 'vpn-reset' } }]);

    // Enter on the first entry: the editor, blank, as without templates.
    expect(then(offered, ENTER).effects).toEqual([{ kind: 'act', id: 1031, action: { kind: 'reply', ticket, draft: undefined } }]);
    const escaped = then(offered, ESC);
    expect(escaped.effects).toEqual([]);
    expect(escaped.state.status?.text).toBe('nothing was changed');
  });

  it('offers the templates for s: one picked opens the editor for the notes, none the prompt', () => {
    const offered = then(opened(), key('s'), resolveChecked(1031), { kind: 'templatesRead', id: 1031, purpose: 'resolve', names: ['printer-fixed'] });
    expect(offered.state.overlay).toMatchObject({ kind: 'picker', title: 'Resolve #1031 with' });
    expect(then(offered, key('', { downArrow: true }), ENTER).effects).toEqual([
      { kind: 'act', id: 1031, action: { kind: 'resolveInEditor', ticket: ticketOf(1031), draft: undefined, template: 'printer-fixed' } },
    ]);
    expect(then(offered, ENTER).state.overlay).toMatchObject({ kind: 'prompt', resolves: 1031 });
    expect(then(opened(), key('s'), resolveChecked(1031), { kind: 'templatesFailed', error: new Error('EACCES') }).state.status?.text).toBe(
      '✗ templates: EACCES',
    );
  });

  it('opens a reply kept from a failed send without offering templates, which would replace it', () => {
    const failed = then(opened(), key('r'), noTemplates(1031, 'reply'), { kind: 'actionFailed', id: 1031, error: new Error('HTTP 500'), unsent: 'draft' });
    expect(then(failed, key('r')).effects).toEqual([{ kind: 'act', id: 1031, action: { kind: 'reply', ticket: undefined, draft: 'draft' } }]);
  });

  it('keeps resolution notes whose sending failed, and offers them again on the next s, without templates', () => {
    const resolving = then(opened(), key('s'), resolveChecked(1031), noTemplates(1031, 'resolve'), type('Cable reseated\r'));
    const refused = answer('POST', '/api/TicketsApi/resolve/1031', 500);
    const failed = then(resolving, { kind: 'actionFailed', id: 1031, error: refused, unsent: 'Cable reseated' });
    expect(failed.state.status?.text).toMatch(/^✗ resolving #1031: .*HTTP 500; your notes are kept: s opens them again$/);

    const again = then(failed, key('s'), resolveChecked(1031));
    expect(again.effects).toEqual([{ kind: 'checkResolve', id: 1031 }]);
    expect(again.state.overlay).toEqual({ kind: 'prompt', label: 'Resolution notes for #1031', text: 'Cable reseated', cursor: 14, resolves: 1031 });
    // Esc keeps them, as edited; emptied, they are dropped.
    const edited = then(again, key('', { backspace: true }), ESC);
    expect(edited.state.status?.text).toBe('nothing was changed (your notes are kept: s opens them again)');
    expect(then(edited, key('s'), resolveChecked(1031)).state.overlay).toMatchObject({ kind: 'prompt', text: 'Cable reseate' });
    const emptied = then(edited, key('s'), resolveChecked(1031), ...Array.from('Cable reseate', () => key('', { backspace: true })), ESC);
    expect(emptied.state.status?.text).toBe('nothing was changed');
    expect(effects(then(emptied, key('s'), resolveChecked(1031)), 'readTemplates')).toEqual([{ kind: 'readTemplates', id: 1031, purpose: 'resolve' }]);

    // Resolved: the notes are gone.
    const resolved = then(edited, key('s'), resolveChecked(1031), type('d\r'), {
      kind: 'acted',
      id: 1031,
      done: 'resolved #1031',
      refreshed: { ticket: ITEMS[0] },
    });
    expect(effects(resolved, 'act')).toEqual([{ kind: 'act', id: 1031, action: { kind: 'resolve', notes: 'Cable reseated' } }]);
    expect(effects(then(resolved, key('s'), resolveChecked(1031)), 'readTemplates')).toEqual([{ kind: 'readTemplates', id: 1031, purpose: 'resolve' }]);
  });

  it('opens notes of more than a line, written in the editor from a template, in the editor again', () => {
    const offered = then(opened(), key('s'), resolveChecked(1031), { kind: 'templatesRead', id: 1031, purpose: 'resolve', names: ['printer-fixed'] });
    const written = 'Toner replaced.\nThe printer prints again.\n';
    const failed = then(offered, key('', { downArrow: true }), ENTER, { kind: 'actionFailed', id: 1031, error: new Error('socket hang up'), unsent: written });
    expect(failed.state.status?.text).toBe('✗ resolving #1031: socket hang up; your notes are kept: s opens them again');
    expect(effects(then(failed, key('s'), resolveChecked(1031)), 'act')).toEqual([
      { kind: 'act', id: 1031, action: { kind: 'resolveInEditor', ticket: ticketOf(1031), draft: 'Toner replaced.\nThe printer prints again.' } },
    ]);
  });

  it('reads the ticket before s asks for notes, as tkt resolve does: closed or resolved, it is said so and nothing is asked', () => {
    // It asked for the notes (or offered templates) first, and only then read the ticket.
    const pressed = then(opened(), key('s'));
    expect(pressed.effects).toEqual([{ kind: 'checkResolve', id: 1031 }]);
    expect(pressed.state.overlay).toBeUndefined();

    const closed = new OperationError('ticket #1031 is closed: reopen it first', { hint: 'o reopens it, then s resolves it' });
    const refused = then(pressed, { kind: 'resolveRefused', id: 1031, error: closed });
    expect(refused.effects).toEqual([]);
    expect(refused.state.overlay).toBeUndefined();
    expect(refused.state.status).toEqual({ text: '✗ resolving #1031: ticket #1031 is closed: reopen it first', tone: 'error' });

    const resolved = then(pressed, { ...resolveChecked(1031), unchanged: 'already resolved, nothing changed' });
    expect(resolved.effects).toEqual([]);
    expect(resolved.state.overlay).toBeUndefined();
    expect(resolved.state.status).toEqual({ text: '✓ #1031 already resolved, nothing changed', tone: 'ok' });

    // Open: the templates, then the prompt, with the ticket just read (the editor's heading needs no other read).
    const open = then(pressed, resolveChecked(1031));
    expect(open.effects).toEqual([{ kind: 'readTemplates', id: 1031, purpose: 'resolve' }]);
    expect(open.state.details.get(1031)?.ticket).toEqual(ticketOf(1031));
    expect(then(open, noTemplates(1031, 'resolve')).state.overlay).toMatchObject({ kind: 'prompt', resolves: 1031 });
  });

  it('keeps notes kept from a failed resolve when the ticket read before asking again is closed or resolved', () => {
    const failed = then(opened(), key('s'), resolveChecked(1031), noTemplates(1031, 'resolve'), type('Cable reseated\r'), {
      kind: 'actionFailed',
      id: 1031,
      error: new Error('socket hang up'),
      unsent: 'Cable reseated',
    });
    const again = then(failed, key('s'));
    expect(again.effects).toEqual([{ kind: 'checkResolve', id: 1031 }]);
    expect(again.state.overlay).toBeUndefined();

    const closed = new OperationError('ticket #1031 is closed: reopen it first');
    const refused = then(again, { kind: 'resolveRefused', id: 1031, error: closed });
    expect(refused.state.status?.text).toBe('✗ resolving #1031: ticket #1031 is closed: reopen it first; your notes are kept: s opens them again');
    expect(refused.state.drafts.resolution.get(1031)).toBe('Cable reseated');
    const resolved = then(again, { ...resolveChecked(1031), unchanged: 'already resolved, nothing changed' });
    expect(resolved.state.drafts.resolution.get(1031)).toBe('Cable reseated');
    // Open: the prompt with them, no templates.
    expect(then(again, resolveChecked(1031)).state.overlay).toMatchObject({ kind: 'prompt', text: 'Cable reseated' });
  });

  it('resolves with the notes typed at the prompt, and closes only after a y', () => {
    const resolving = then(
      opened(),
      key('s'),
      resolveChecked(1031),
      noTemplates(1031, 'resolve'),
      type('Toner replaced'),
      key('', { backspace: true }),
      type('d\r'),
    );
    expect(effects(resolving, 'act')).toEqual([{ kind: 'act', id: 1031, action: { kind: 'resolve', notes: 'Toner replaced' } }]);

    const declined = then(opened(), key('c'), key('n'));
    expect(declined.effects).toEqual([]);
    expect(declined.state.status?.text).toBe('nothing was changed');
    expect(then(opened(), key('c'), key('y')).effects).toEqual([{ kind: 'act', id: 1031, action: { kind: 'close' } }]);
  });

  it("names the profile in close's question when it is not the default: the ticket closed is that service's", () => {
    const question = (shownProfile: string | undefined) => {
      const step = run(start(VIEW, SIZE, { login: { shownProfile, globals: {}, env: {} } }), { kind: 'viewLoaded', token: 1, items: ITEMS }, key('c'));
      return step.state.overlay?.kind === 'confirm' ? step.state.overlay.question : undefined;
    };
    expect(question('prod')).toBe('Close #1031 on profile prod? (y/n)');
    // The default one goes without saying, even where the title line names it (another profile exists).
    expect(question('default')).toBe('Close #1031? (y/n)');
    expect(question(undefined)).toBe('Close #1031? (y/n)');
  });

  it('assigns through the picker of technicians, the one typed first', () => {
    const asking = then(opened(), key('j'), key('a'));
    expect(asking.effects.filter((effect) => effect.kind !== 'readDetail')).toEqual([{ kind: 'readTechnicians', id: 1029 }]);
    const choices = [
      { label: 'Ada Admin (admin)', value: '1' },
      { label: 'Tom Tech (tech)', value: '2' },
    ];
    const picked = then(asking, { kind: 'techniciansRead', id: 1029, choices }, type('tom'), ENTER);
    expect(picked.effects).toEqual([{ kind: 'act', id: 1029, action: { kind: 'assign', user: '2' } }]);
  });

  it('says so in the status line when the pager cannot be run, instead of printing under the screen', () => {
    const showing = then(withDetail(opened()), ENTER);
    expect(showing.effects).toEqual([{ kind: 'showInPager', id: 1031, width: 80, ticket: expect.objectContaining({ id: 1031 }) }]);
    const failed = then(showing, { kind: 'notShown', id: 1031, reason: 'the pager "most" ($PAGER) could not be run' });
    expect(failed.state.status).toEqual({ text: '✗ show #1031: the pager "most" ($PAGER) could not be run', tone: 'error' });
  });
});

describe('keys and pastes', () => {
  it('moves with j/k and the arrows, by a page, and to the ends (Home/End, g/G)', () => {
    const at = (...events: TriageEvent[]) => highlighted(then(opened(), ...events).state);
    expect(at(key('j'), key('', { downArrow: true }))).toBe(1023);
    expect(at(key('G'), key('k'))).toBe(1023);
    expect(at(key('', { end: true }))).toBe(1015);
    expect(at(key('', { pageDown: true }))).toBe(1015);
    expect(at(key('G'), key('g'))).toBe(1031);
    expect(at(key('k'))).toBe(1031);
  });

  it('takes keys typed as one chunk one by one: "/" starts the filter, Enter ends it', () => {
    const step = then(opened(), type('/printer\r'), key('j'));
    expect(step.state.filtering).toBe(false);
    expect(step.state.filter).toBe('printer');
    expect(highlighted(step.state)).toBe(1023);
    // Esc over the list clears it; the highlight stays on its ticket.
    const cleared = then(step, ESC);
    expect(cleared.state.filter).toBe('');
    expect(highlighted(cleared.state)).toBe(1023);
  });

  it('deletes a whole emoji with Backspace at the prompt, so that no half of it is sent', () => {
    const sent = then(opened(), key('s'), resolveChecked(1031), noTemplates(1031, 'resolve'), type('Done 😀'), key('', { backspace: true }), ENTER);
    expect(effects(sent, 'act')).toEqual([{ kind: 'act', id: 1031, action: { kind: 'resolve', notes: 'Done ' } }]);
    // Nor a half typed or pasted on its own.
    const halves = then(opened(), key('s'), resolveChecked(1031), noTemplates(1031, 'resolve'), type('a\ud83d'), { kind: 'paste', text: 'b\ude00' }, ENTER);
    expect(effects(halves, 'act')).toEqual([{ kind: 'act', id: 1031, action: { kind: 'resolve', notes: 'ab' } }]);
  });

  it('edits the prompt, the picker and the filter where the cursor is: Left Left X inserts before the last two characters', () => {
    const LEFT = key('', { leftArrow: true });
    const notes = then(opened(), key('s'), resolveChecked(1031), noTemplates(1031, 'resolve'), type('Done'), LEFT, LEFT, type('X'));
    expect(notes.state.overlay).toMatchObject({ kind: 'prompt', text: 'DoXne', cursor: 3 });
    expect(effects(then(notes, key('u', { ctrl: true }), ENTER), 'act')).toEqual([{ kind: 'act', id: 1031, action: { kind: 'resolve', notes: 'ne' } }]);
    const choices = [
      { label: 'Ada Admin (admin)', value: '1' },
      { label: 'Tom Tech (tech)', value: '2' },
    ];
    const picker = then(opened(), key('a'), { kind: 'techniciansRead', id: 1031, choices }, type('tech'), key('', { home: true }), key('', { delete: true }));
    expect(picker.state.overlay).toMatchObject({ kind: 'picker', query: 'ech', cursor: 0 });
    const filter = then(opened(), type('/printr'), LEFT, type('e'), key('', { end: true }), key('w', { ctrl: true }), type('VPN'));
    expect(filter.state).toMatchObject({ filter: 'VPN', filterCursor: 3 });
    expect(then(opened(), type('/prinetr'), LEFT, LEFT, key('', { backspace: true })).state).toMatchObject({ filter: 'printr', filterCursor: 4 });
  });

  it('takes pasted text as text, its line breaks as spaces, and turns it away over the list', () => {
    const prompt = then(opened(), key('s'), resolveChecked(1031), noTemplates(1031, 'resolve'), {
      kind: 'paste',
      text: 'Toner replaced.\nThen s and c were pressed.\n',
    });
    expect(prompt.state.overlay).toMatchObject({ kind: 'prompt', text: 'Toner replaced. Then s and c were pressed.' });
    expect(effects(prompt, 'act')).toEqual([]);

    const list = then(opened(), { kind: 'paste', text: 'q' });
    expect(list.state.ended).toBe(false);
    expect(list.state.status?.text).toMatch(/^pasted text goes into/);
  });

  it('ends with q, and as interrupted with Ctrl-C or a signal, even while typing; nothing happens after', () => {
    expect(then(opened(), key('q')).effects).toEqual([{ kind: 'end', ending: 'quit' }]);
    expect(then(opened(), key('/'), key('c', { ctrl: true })).effects).toEqual([{ kind: 'end', ending: 'interrupted' }]);
    const signalled = then(opened(), { kind: 'signalled' });
    expect(signalled.effects).toEqual([{ kind: 'end', ending: 'interrupted' }]);
    expect(then(signalled, key('p'), { kind: 'viewLoaded', token: 1, items: [] })).toEqual({ state: signalled.state, effects: [] });
  });

  it('keeps the notes being typed at the resolve prompt when Ctrl-C or a signal ends the run, to be saved with the other drafts', () => {
    const typing = then(opened(), key('s'), resolveChecked(1031), noTemplates(1031, 'resolve'), type('Cable reseated'));
    for (const ending of [key('c', { ctrl: true }), { kind: 'signalled' } as const]) {
      const ended = then(typing, ending);
      expect(ended.effects).toEqual([{ kind: 'end', ending: 'interrupted' }]);
      expect([...ended.state.drafts.resolution]).toEqual([[1031, 'Cable reseated']]);
    }
    // Nothing typed: nothing kept.
    const empty = then(opened(), key('s'), resolveChecked(1031), noTemplates(1031, 'resolve'), key('c', { ctrl: true }));
    expect(empty.state.drafts.resolution.size).toBe(0);
  });

  it('suspends on Ctrl-Z, over the list, while typing and while a picker is on its way, and says why when it could not', () => {
    const CTRL_Z = key('z', { ctrl: true });
    for (const before of [[], [type('/prin')], [key('s'), resolveChecked(1031), noTemplates(1031, 'resolve'), type('Done')], [key('a')]]) {
      const typing = then(opened(), ...before);
      const suspended = then(typing, CTRL_Z);
      expect(suspended).toEqual({ state: typing.state, effects: [{ kind: 'suspend' }] });
    }
    const refused = then(opened(), CTRL_Z, { kind: 'notSuspended', reason: 'no shell with job control started tkt' });
    expect(refused.state.status).toEqual({ text: 'Ctrl-Z: no shell with job control started tkt, so the screen stays', tone: 'info' });
  });

  it('reads a Ctrl key with a letter as no key of the table, not as the letter', () => {
    const before = opened();
    expect(then(before, key('p', { ctrl: true }), key('q', { ctrl: true }))).toEqual({ state: before.state, effects: [] });
  });

  it('opens the help over everything, and any key closes it', () => {
    const help = then(opened(), key('?'));
    expect(help.state.overlay).toEqual({ kind: 'help', top: 0 });
    const closed = then(help, key('p'));
    expect(closed.state.overlay).toBeUndefined();
    expect(effects(closed, 'act')).toEqual([]);
    // All of it fits at 80x24: j closes it too.
    expect(then(help, key('j')).state.overlay).toBeUndefined();
  });

  it('scrolls the help when the screen is too short for it, by a line, a page and to the ends; another key closes it', () => {
    const help = then(opened(), { kind: 'resized', columns: 40, rows: 10 }, key('?'));
    const top = (step: Step) => (step.state.overlay?.kind === 'help' ? step.state.overlay.top : undefined);
    expect(top(then(help, key('j')))).toBe(1);
    expect(top(then(help, key('j'), key('', { downArrow: true }), key('k')))).toBe(1);
    expect(top(then(help, key('k')))).toBe(0);
    const page = top(then(help, key('', { pageDown: true })))!;
    expect(page).toBeGreaterThan(1);
    const end = top(then(help, key('', { end: true })))!;
    expect(end).toBeGreaterThan(page);
    // Not past the end, nor before the start.
    expect(top(then(help, key('G'), key('j')))).toBe(end);
    expect(top(then(help, key('G'), key('', { pageUp: true })))).toBe(end - page);
    expect(top(then(help, key('G'), key('g')))).toBe(0);
    const closed = then(help, key('j'), key('x'));
    expect(closed.state.overlay).toBeUndefined();
    expect(closed.effects).toEqual([]);
  });

  it.each([3, 4])('scrolls the help at %i lines, the shortest screens', (rows) => {
    const help = then(opened(), { kind: 'resized', columns: 40, rows }, key('?'));
    const top = (step: Step) => (step.state.overlay?.kind === 'help' ? step.state.overlay.top : undefined);
    expect(top(then(help, key('j')))).toBe(1);
    expect(top(then(help, key('j'), key('j'), key('k')))).toBe(1);
    expect(top(then(help, key('', { pageDown: true })))).toBeGreaterThan(0);
  });
});

describe('keys typed before what a key opens is open', () => {
  const technicians = (id: number): TriageEvent => ({
    kind: 'techniciansRead',
    id,
    choices: [
      { label: 'Ada Admin (admin)', value: '1' },
      { label: 'Tom Tech (tech)', value: '2' },
    ],
  });
  const templates = (id: number, purpose: TemplatePurpose): TriageEvent => ({ kind: 'templatesRead', id, purpose, names: ['printer-fixed'] });
  const acts = (step: Step) => effects(step, 'act');

  it('gives the keys typed with a, in the same chunk or after it, to the assign picker once it opens', () => {
    const typed = then(opened(), type('aom'));
    // o would reopen and m mark read, were they keys of the list.
    expect(acts(typed)).toEqual([]);
    expect(typed.state.overlay).toBeUndefined();
    expect(then(typed, technicians(1031)).state.overlay).toMatchObject({ kind: 'picker', query: 'om' });
    const apart = then(opened(), key('a'), key('t'), type('om'), technicians(1031));
    expect(apart.state.overlay).toMatchObject({ kind: 'picker', query: 'tom' });
    // Typed up to Enter before the picker came: the technician chosen as if it had been there.
    expect(acts(then(opened(), type('atom\r'), technicians(1031)))).toEqual([{ kind: 'act', id: 1031, action: { kind: 'assign', user: '2' } }]);
  });

  it('gives them to the template picker of r and s, and to the prompt of s without templates, pastes too', () => {
    const reply = then(opened(), type('rpri'), templates(1031, 'reply'));
    expect(acts(reply)).toEqual([]);
    expect(reply.state.overlay).toMatchObject({ kind: 'picker', query: 'pri' });
    const notes = then(opened(), type('sDone'), { kind: 'paste', text: ' and tested' }, resolveChecked(1031), noTemplates(1031, 'resolve'));
    expect(notes.state.overlay).toMatchObject({ kind: 'prompt', text: 'Done and tested' });
    const sent = then(opened(), type('sToner\r'), resolveChecked(1031), noTemplates(1031, 'resolve'));
    expect(acts(sent)).toEqual([{ kind: 'act', id: 1031, action: { kind: 'resolve', notes: 'Toner' } }]);
    // Esc typed ahead closes what opens, and nothing is done.
    const escaped = then(opened(), key('a'), ESC, key('p'), technicians(1031));
    expect(escaped.state.overlay).toBeUndefined();
    expect(acts(escaped)).toEqual([{ kind: 'act', id: 1031, action: { kind: 'pickUp' } }]);
  });

  it('drops the keys typed ahead of the editor or the pager, which cannot have them, and of a picker that could not open', () => {
    // r without templates opens the editor: Enter and p would open the pager and pick the ticket up.
    const replying = then(opened(), type('r\rp'), noTemplates(1031, 'reply'));
    expect(replying.effects.filter((effect) => effect.kind !== 'readTemplates')).toEqual([
      { kind: 'act', id: 1031, action: { kind: 'reply', ticket: undefined, draft: undefined } },
    ]);
    const lent = then(replying, key('m'), { kind: 'terminalLent' });
    expect(lent.effects).toEqual([]);
    // Once the editor has the terminal, what comes after it is typed in triage again.
    expect(effects(then(lent, { kind: 'acted', id: 1031, done: 'replied to #1031', refreshed: { ticket: ITEMS[0] } }, key('p')), 'act')).toEqual([
      { kind: 'act', id: 1031, action: { kind: 'pickUp' } },
    ]);
    // Enter, then q before the pager is up: q is not triage's.
    const paging = then(withDetail(opened()), type('\rq'));
    expect(paging.state.ended).toBe(false);
    expect(then(paging, { kind: 'shown', id: 1031 }, key('q')).state.ended).toBe(true);
    const failed = then(opened(), type('abad\r'), { kind: 'techniciansFailed', error: new Error('HTTP 500') });
    expect(acts(failed)).toEqual([]);
    expect(failed.state.status?.text).toBe('✗ assign: HTTP 500');
    expect(acts(then(failed, key('p')))).toEqual([{ kind: 'act', id: 1031, action: { kind: 'pickUp' } }]);
  });

  it('keeps waiting for the picker when another action ends meanwhile, and still ends on Ctrl-C', () => {
    const picking = then(
      opened(),
      key('p'),
      key('a'),
      type('to'),
      { kind: 'acted', id: 1031, done: 'picked up #1031', refreshed: { ticket: ITEMS[0] } },
      type('m'),
    );
    expect(then(picking, technicians(1031)).state.overlay).toMatchObject({ kind: 'picker', query: 'tom' });
    expect(then(then(opened(), key('a')), key('c', { ctrl: true })).effects).toEqual([{ kind: 'end', ending: 'interrupted' }]);
  });
});

describe('keys typed while an action runs', () => {
  const acted = (id: number, done: string): TriageEvent => ({ kind: 'acted', id, done, refreshed: { ticket: ITEMS.find((entry) => entry.id === id) } });
  const acts = (step: Step) => effects(step, 'act').map(({ id, action }) => `${action.kind} #${id}`);

  it('runs each in turn on the ticket highlighted when it was typed, while the moves happen at once', () => {
    // p on 1031, down, p on 1029, down: the highlight is on 1023 before the first is over.
    const typed = then(opened(), type('pjpj'));
    expect(acts(typed)).toEqual(['pickUp #1031']);
    expect(highlighted(typed.state)).toBe(1023);
    expect(typed.state.status).toEqual({ text: 'picking up #1031… (then 1 more)', tone: 'info' });
    const second = then(typed, acted(1031, 'picked up #1031'));
    expect(acts(second)).toEqual(['pickUp #1029']);
    // The first's outcome stays said while the next runs.
    expect(second.state.status).toEqual({ text: '✓ picked up #1031 · picking up #1029…', tone: 'info' });
    const done = then(second, acted(1029, 'picked up #1029'));
    expect(done.effects.filter((effect) => effect.kind === 'act')).toEqual([]);
    expect(done.state.status).toEqual({ text: '✓ picked up #1029', tone: 'ok' });
  });

  it('marks read each ticket m was typed on (mjmjm), in order', () => {
    const step = run(opened(), type('mjmjm'), acted(1031, 'marked #1031 read'), acted(1029, 'marked #1029 read'), acted(1023, 'marked #1023 read'));
    expect(acts(step)).toEqual(['markRead #1031', 'markRead #1029', 'markRead #1023']);
    expect(highlighted(step.state)).toBe(1023);
  });

  it('keeps a failure said until the last action in turn is over', () => {
    const failed = then(opened(), type('pjp'), { kind: 'actionFailed', id: 1031, error: notFound(1031) });
    expect(acts(failed)).toEqual(['pickUp #1031', 'pickUp #1029']);
    expect(failed.state.status?.tone).toBe('error');
    expect(failed.state.status?.text).toMatch(/^✗ picking up #1031: Ticket 1031 was not found\..* · picking up #1029…$/);
    const done = then(failed, acted(1029, 'picked up #1029'));
    expect(done.state.status?.tone).toBe('error');
    expect(done.state.status?.text).toMatch(/^✓ picked up #1029 \(before it: ✗ picking up #1031: Ticket 1031 was not found\./);
  });

  it('gives what is typed after a queued key that opens something to that thing, in its turn', () => {
    // a typed while 1031 is picked up, on 1029: the picker opens once the pickup is over, with "tom" typed.
    const assigning = then(opened(), type('pjatom\r'));
    expect(acts(assigning)).toEqual(['pickUp #1031']);
    const turn = then(assigning, acted(1031, 'picked up #1031'));
    expect(effects(turn, 'readTechnicians')).toEqual([{ kind: 'readTechnicians', id: 1029 }]);
    const chosen = then(turn, { kind: 'techniciansRead', id: 1029, choices: [{ label: 'Tom Tech (tech)', value: '2' }] });
    expect(effects(chosen, 'act')).toEqual([{ kind: 'act', id: 1029, action: { kind: 'assign', user: '2' } }]);
    // c and its y, and the question's n, wait their turn as well.
    const closing = run(opened(), type('pcyjcn'), acted(1031, 'picked up #1031'));
    expect(acts(closing)).toEqual(['pickUp #1031', 'close #1031']);
    expect(acts(then(closing, acted(1031, 'closed #1031')))).toEqual([]);
  });
});

describe('leaving while an action is being sent', () => {
  it.each([
    ['q', key('q'), 'quit'],
    ['Ctrl-C', key('c', { ctrl: true }), 'interrupted'],
  ] as const)('%s: records what the action did once it is over, and lists the keys waiting their turn as not done', (_name, leave, ending) => {
    const left = then(then(opened(), type('pjpjm')), leave);
    expect(left.effects).toEqual([{ kind: 'end', ending }]);
    expect(left.state.left).toEqual({ outcomes: [], notDone: ['p on #1029', 'm on #1023'] });
    // Nothing waiting is started once the action is over.
    const over = then(left, { kind: 'acted', id: 1031, done: 'picked up #1031', refreshed: { ticket: ITEMS[0] } });
    expect(over.effects).toEqual([]);
    expect(over.state.running).toBeUndefined();
    expect(over.state.left).toEqual({ outcomes: ['✓ picked up #1031'], notDone: ['p on #1029', 'm on #1023'] });
  });

  it('records a failure, and keeps the text that was not sent, to be saved', () => {
    const replying = then(opened(), type('r'), noTemplates(1031, 'reply'), { kind: 'terminalLent' }, key('c', { ctrl: true }));
    const failed = then(replying, { kind: 'actionFailed', id: 1031, error: notFound(1031), unsent: 'On its way.' });
    expect(failed.state.left?.outcomes).toEqual([expect.stringMatching(/^✗ replying to #1031: Ticket 1031 was not found\./)]);
    expect(failed.state.drafts.reply.get(1031)).toBe('On its way.');
  });
});
