// The effect runner against a sandbox: each effect done as the commands do it, its result
// reported as the event update.ts takes in. A client that holds chosen requests back makes
// answers arrive late on cue.
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { ApiClient, RequestPlan } from '../../src/api/types.js';
import { EditorFailedError, InterruptedError } from '../../src/errors.js';
import { templatesDir } from '../../src/desk/templates.js';
import type { EffectDeps } from '../../src/triage/effects.js';
import type { TicketAction, TriageEvent } from '../../src/triage/events.js';
import { failureText } from '../../src/triage/failure.js';
import { rowsOf } from '../../src/triage/rows.js';
import { standInEffectRunner } from '../helpers/effect-runner.js';
import type { Harness } from '../helpers/harness.js';
import { routeCount, ticketById, unusedTicket, useHarness } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({ login: 'tech' }, (harness) => (h = harness));

/** A gate the requests `matching` wait at until it is opened. */
function gate(matching: (plan: RequestPlan) => boolean) {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { matching, opened, open };
}

/** A runner on the sandbox (the editor, the pager and the detail's rendering stood in for), and the way to hold requests back. */
async function openRunner(deps: Partial<EffectDeps> = {}, env: Record<string, string> = {}) {
  const { ctx } = await h.context({ tty: true, env });
  const gates: ReturnType<typeof gate>[] = [];
  const held = (real: ApiClient): ApiClient => ({
    ...real,
    async send(plan) {
      await gates.find((waiting) => waiting.matching(plan))?.opened;
      return real.send(plan);
    },
  });
  const perform = standInEffectRunner({ ...ctx, apiFor: async (session) => held(await ctx.apiFor(session)) }, deps);
  const hold = (matching: (plan: RequestPlan) => boolean) => {
    const held = gate(matching);
    gates.push(held);
    return held;
  };
  const act = (id: number, action: TicketAction) => perform({ kind: 'act', id, action });
  /** Saves template `name` in the config folder the runner's templates are read from. */
  const saveTemplate = async (name: string, text: string | Buffer) => {
    await mkdir(templatesDir(ctx), { recursive: true });
    await writeFile(join(templatesDir(ctx), `${name}.md`), text);
  };
  return { perform, hold, act, saveTemplate, templates: templatesDir(ctx) };
}

const OPEN = 1;
const RESOLVED = 6;
const CLOSED = 7;

const isList = (listType: string) => (plan: RequestPlan) => plan.path === '/api/TicketsApi' && (plan.json as { listType?: string }).listType === listType;

/** The first ticket of the technician's default view. */
async function firstTicket(): Promise<number> {
  const { perform } = await openRunner();
  const loaded = await perform({ kind: 'loadView', view: 'MyOpenOrUnassigned', token: 1 });
  const [first] = rowsOf(loaded?.kind === 'viewLoaded' ? loaded.items : []);
  if (first === undefined) throw new Error('the default view is empty');
  return first.id;
}

describe('the effect runner', () => {
  it('loads a view; a load overtaken by a later one reports nothing', async () => {
    const { perform, hold } = await openRunner();
    const slow = hold(isList('MyOpenOrUnassigned'));
    const overtaken = perform({ kind: 'loadView', view: 'MyOpenOrUnassigned', token: 1 });
    const later = await perform({ kind: 'loadView', view: 'UnassignedTickets', token: 2 });
    expect(later).toMatchObject({ kind: 'viewLoaded', token: 2 });
    expect((later as Extract<TriageEvent, { kind: 'viewLoaded' }>).items.length).toBeGreaterThan(0);
    slow.open();
    expect(await overtaken).toBeUndefined();
  });

  it('reads and renders a detail at the width asked, or reports why it could not', async () => {
    const id = await firstTicket();
    const { perform } = await openRunner();
    const ticket = ticketById(h, id);
    const read = await perform({ kind: 'readDetail', id, width: 72, ticket: undefined, generation: 3 });
    expect(read).toMatchObject({ kind: 'detailRead', id, width: 72, generation: 3, text: expect.stringContaining(`pane at 72: {`) });
    expect(read).toMatchObject({ text: expect.stringContaining(JSON.stringify(ticket.title)) });

    ticket.isDeleted = true;
    try {
      const failed = await perform({ kind: 'readDetail', id, width: 72, ticket: undefined, generation: 3 });
      expect(failed?.kind).toBe('detailFailed');
      expect(failureText((failed as Extract<TriageEvent, { kind: 'detailFailed' }>).error)).toMatch(/was not found\. \(not found, HTTP 404\)$/);
    } finally {
      ticket.isDeleted = false;
    }
  });

  it('says when the service changed nothing, in the words of tkt pickup, resolve and close, and reads the ticket again', async () => {
    const id = await firstTicket();
    const { act } = await openRunner();
    const done = async (action: TicketAction) => {
      const event = await act(id, action);
      expect(event).toMatchObject({ kind: 'acted', id, refreshed: { ticket: expect.objectContaining({ title: ticketById(h, id).title }) } });
      return (event as Extract<TriageEvent, { kind: 'acted' }>).done;
    };
    expect(await done({ kind: 'pickUp' })).toBe(`picked up #${id}`);
    expect(await done({ kind: 'pickUp' })).toBe(`#${id} already assigned to you, nothing changed`);
    expect(await done({ kind: 'resolve', notes: 'Fixed' })).toBe(`resolved #${id}`);
    expect(await done({ kind: 'resolve', notes: 'Fixed' })).toBe(`#${id} already resolved, nothing changed`);
    expect(await done({ kind: 'close' })).toBe(`closed #${id}`);
    expect(await done({ kind: 'close' })).toBe(`#${id} already closed, nothing changed`);
  });

  it('refuses to resolve a ticket closed since its row was read, as tkt resolve does: nothing sent, the ticket stays closed', async () => {
    const id = await firstTicket();
    const { act } = await openRunner();
    const ticket = ticketById(h, id);
    const statusBefore = ticket.ticketStatusId;
    try {
      // Closed elsewhere: the row still says what it said.
      ticket.ticketStatusId = 7;
      const resolves = () => h.sandbox.stats.byRoute['POST /api/TicketsApi/resolve/{id}'] ?? 0;
      const before = resolves();
      const failed = await act(id, { kind: 'resolve', notes: 'Fixed' });
      expect(failed).toMatchObject({ kind: 'actionFailed', id, unsent: 'Fixed' });
      expect(failureText((failed as Extract<TriageEvent, { kind: 'actionFailed' }>).error)).toContain(`ticket #${id} is closed: reopen it first`);
      expect(resolves()).toBe(before);
      expect(ticketById(h, id).ticketStatusId).toBe(7);
    } finally {
      ticket.ticketStatusId = statusBefore;
    }
  });

  it("reads the ticket for s before the notes are asked, once: resolve's answer for it, a closed one refused, nothing sent", async () => {
    const { perform } = await openRunner();
    const reads = () => routeCount(h, 'GET /api/TicketsApi/{id}');
    const check = async (status: number) => {
      const ticket = unusedTicket(h, (t) => t.ticketStatusId === status);
      const before = { reads: reads(), requests: h.sandbox.stats.requests };
      const event = await perform({ kind: 'checkResolve', id: ticket.id });
      // One request, the read: nothing is sent to the ticket.
      expect({ reads: reads() - before.reads, requests: h.sandbox.stats.requests - before.requests }).toEqual({ reads: 1, requests: 1 });
      return { id: ticket.id, title: ticket.title, event };
    };
    const open = await check(OPEN);
    expect(open.event).toEqual({ kind: 'resolveChecked', id: open.id, ticket: expect.objectContaining({ title: open.title }), unchanged: undefined });
    const resolved = await check(RESOLVED);
    expect(resolved.event).toMatchObject({ kind: 'resolveChecked', id: resolved.id, unchanged: 'already resolved, nothing changed' });
    const closed = await check(CLOSED);
    expect(closed.event).toMatchObject({ kind: 'resolveRefused', id: closed.id });
    expect(failureText((closed.event as Extract<TriageEvent, { kind: 'resolveRefused' }>).error)).toBe(`ticket #${closed.id} is closed: reopen it first`);
  });

  it('replies with Re: the title on one line, though the title holds line breaks', async () => {
    const id = await firstTicket();
    const { act } = await openRunner({ editor: async () => 'On its way' });
    const ticket = ticketById(h, id);
    const title = ticket.title;
    try {
      ticket.title = 'Two\nlines';
      expect(await act(id, { kind: 'reply', ticket: undefined, draft: undefined })).toMatchObject({ kind: 'acted', id });
      expect(h.sandbox.state.conversations.filter((entry) => entry.ticketId === id).at(-1)).toMatchObject({ subject: 'Re: Two lines' });
    } finally {
      ticket.title = title;
    }
  });

  it('reports a reply that could not be sent with its message, and opens the editor on the draft given', async () => {
    const id = await firstTicket();
    const defaults: (string | undefined)[] = [];
    const { act } = await openRunner({ editor: async (options) => (defaults.push(options.default), 'Have you tried turning it off and on again?') });
    h.sandbox.failNext('POST /api/TicketsApi/reply/{id}', 500);
    const failed = await act(id, { kind: 'reply', ticket: undefined, draft: undefined });
    expect(failed).toMatchObject({ kind: 'actionFailed', id, unsent: 'Have you tried turning it off and on again?' });

    const sent = await act(id, { kind: 'reply', ticket: undefined, draft: 'Have you tried turning it off and on again?' });
    expect(sent).toMatchObject({ kind: 'acted', id, done: expect.stringMatching(new RegExp(`^replied to #${id} \\(to `)) });
    expect(defaults).toEqual([undefined, 'Have you tried turning it off and on again?']);
    expect(h.sandbox.state.conversations.filter((entry) => entry.ticketId === id).map((entry) => entry.message)).toContain(
      'Have you tried turning it off and on again?',
    );
  });

  it('reports resolution notes that could not be sent, typed or written in the editor, and opens the editor on the notes given', async () => {
    const id = await firstTicket();
    const defaults: (string | undefined)[] = [];
    const { act } = await openRunner({ editor: async (options) => (defaults.push(options.default), `${options.default ?? ''} again`) });
    h.sandbox.failNext('POST /api/TicketsApi/resolve/{id}', 500);
    expect(await act(id, { kind: 'resolve', notes: 'Cable reseated' })).toMatchObject({ kind: 'actionFailed', id, unsent: 'Cable reseated' });

    h.sandbox.failNext('POST /api/TicketsApi/resolve/{id}', 500);
    const failed = await act(id, { kind: 'resolveInEditor', ticket: undefined, draft: 'Toner replaced.\nIt prints.' });
    expect(failed).toMatchObject({ kind: 'actionFailed', id, unsent: 'Toner replaced.\nIt prints. again' });
    expect(defaults).toEqual(['Toner replaced.\nIt prints.']);
    expect(ticketById(h, id).resolution).toBeFalsy();
  });

  it('offers only the templates tkt can use: none not in UTF-8, none whose name still ends in ".md"', async () => {
    const id = await firstTicket();
    const { perform, saveTemplate, templates } = await openRunner();
    await saveTemplate('usable', 'Fixed.\n');
    await saveTemplate('usable.md', 'Twin.\n');
    await saveTemplate('u16', Buffer.from('\ufeffBonjour\r\n', 'utf16le'));
    try {
      expect(await perform({ kind: 'readTemplates', id, purpose: 'reply' })).toEqual({ kind: 'templatesRead', id, purpose: 'reply', names: ['usable'] });
    } finally {
      for (const file of ['usable.md', 'usable.md.md', 'u16.md']) await rm(join(templates, file), { force: true });
    }
  });

  it('opens the editor on a template filled for the ticket, and sends what is saved with its subject', async () => {
    const id = await firstTicket();
    const ticket = ticketById(h, id);
    const defaults: (string | undefined)[] = [];
    const { act, perform, saveTemplate } = await openRunner({ editor: async (options) => (defaults.push(options.default), options.default ?? '') });
    expect(await perform({ kind: 'readTemplates', id, purpose: 'reply' })).toEqual({ kind: 'templatesRead', id, purpose: 'reply', names: [] });
    await saveTemplate('fixed', '---\nsubject: "Fixed: {{ticket.title}}"\n---\n<!-- not sent -->\nTicket #{{ticket.id}} ({{ticket.title}}) is fixed.\n');
    expect(await perform({ kind: 'readTemplates', id, purpose: 'resolve' })).toEqual({ kind: 'templatesRead', id, purpose: 'resolve', names: ['fixed'] });

    const sent = await act(id, { kind: 'reply', ticket: undefined, draft: undefined, template: 'fixed' });
    expect(sent).toMatchObject({ kind: 'acted', id });
    const filled = `Ticket #${id} (${ticket.title}) is fixed.`;
    expect(defaults).toEqual([filled]);
    const reply = h.sandbox.state.conversations.find((entry) => entry.ticketId === id && entry.message === filled);
    expect(reply).toMatchObject({ subject: `Fixed: ${ticket.title}` });

    expect(await act(id, { kind: 'resolveInEditor', ticket: undefined, draft: undefined, template: 'fixed' })).toMatchObject({
      kind: 'acted',
      id,
      done: `resolved #${id}`,
    });
    expect(defaults).toEqual([filled, filled]);
    expect(ticketById(h, id).resolution?.details).toBe(filled);
  });

  it('says which value a template lacks, before the editor opens and before anything is sent', async () => {
    const id = await firstTicket();
    const editor = vi.fn(async () => 'never');
    const { act, saveTemplate } = await openRunner({ editor });
    await saveTemplate('owner', 'Your owner is {{ticket.owner}}\n');
    const before = h.sandbox.state.conversations.length;
    const failed = await act(id, { kind: 'reply', ticket: undefined, draft: undefined, template: 'owner' });
    expect(failed).toMatchObject({ kind: 'actionFailed', id, unsent: undefined });
    expect(failureText(failed?.kind === 'actionFailed' ? failed.error : undefined)).toContain('unknown placeholder {{ticket.owner}}');
    expect(editor).not.toHaveBeenCalled();
    expect(h.sandbox.state.conversations).toHaveLength(before);
  });

  it('says where a template has a "{{" that is no placeholder, before the editor opens and before anything is sent', async () => {
    const id = await firstTicket();
    const editor = vi.fn(async () => 'never');
    const { act, saveTemplate } = await openRunner({ editor });
    await saveTemplate('broken', 'Hello {{requester.name},\n\nTicket #{{ticket.id}} is fixed.\n');
    const before = h.sandbox.state.conversations.length;
    const failed = await act(id, { kind: 'reply', ticket: undefined, draft: undefined, template: 'broken' });
    expect(failed).toMatchObject({ kind: 'actionFailed', id, unsent: undefined });
    expect(failureText(failed?.kind === 'actionFailed' ? failed.error : undefined)).toContain(
      'templates/broken.md line 1: "{{requester.name}," is not a placeholder (missing "}}"?)',
    );
    expect(editor).not.toHaveBeenCalled();
    expect(h.sandbox.state.conversations).toHaveLength(before);
  });

  it('keeps no message when the editor fails before one is written', async () => {
    const id = await firstTicket();
    const { act } = await openRunner({
      editor: async () => {
        throw new Error('interrupted');
      },
    });
    const failed = await act(id, { kind: 'reply', ticket: undefined, draft: undefined });
    expect(failed).toMatchObject({ kind: 'actionFailed', id, unsent: undefined });
  });

  it("keeps what was saved in an editor that then failed (vi's :cq), for r to open again", async () => {
    const id = await firstTicket();
    const { act } = await openRunner({
      editor: async () => {
        throw new EditorFailedError('the editor "vi" failed (exit code 1); nothing was sent', 'Rebooted the print server.');
      },
    });
    const before = h.sandbox.state.conversations.length;
    const failed = await act(id, { kind: 'reply', ticket: undefined, draft: undefined });
    expect(failed).toMatchObject({ kind: 'actionFailed', id, unsent: 'Rebooted the print server.' });
    expect(h.sandbox.state.conversations).toHaveLength(before);
  });

  it('keeps what was saved in an editor that Ctrl-C then ended, for r to open again', async () => {
    const id = await firstTicket();
    const { act } = await openRunner({
      editor: async () => {
        throw new InterruptedError(undefined, { typed: 'Saved, then Ctrl-C.' });
      },
    });
    const failed = await act(id, { kind: 'reply', ticket: undefined, draft: undefined });
    expect(failed).toMatchObject({ kind: 'actionFailed', id, unsent: 'Saved, then Ctrl-C.' });
  });

  it('gives the pager the ticket rendered at the width asked, and reports a pager that cannot be run', async () => {
    const id = await firstTicket();
    const paged: string[] = [];
    const { perform } = await openRunner({ page: async (text) => (paged.push(text), 'the pager "most" ($PAGER) could not be run') });
    const event = await perform({ kind: 'showInPager', id, width: 100, ticket: undefined });
    expect(event).toEqual({ kind: 'notShown', id, reason: 'the pager "most" ($PAGER) could not be run' });
    expect(paged).toHaveLength(1);
    expect(paged[0]).toMatch(/^100: \{/);
    // Shown: said too, so that the keys typed ahead of the pager stop being held.
    const shown = await (await openRunner()).perform({ kind: 'showInPager', id, width: 100, ticket: undefined });
    expect(shown).toEqual({ kind: 'shown', id });
  });

  it('suspends through the host, and reports only a suspension that could not be', async () => {
    const suspended: string[] = [];
    const stopped = await openRunner({ suspend: async () => void suspended.push('stopped') });
    expect(await stopped.perform({ kind: 'suspend' })).toBeUndefined();
    expect(suspended).toEqual(['stopped']);
    const refused = await openRunner({ suspend: async () => 'no job control' });
    expect(await refused.perform({ kind: 'suspend' })).toEqual({ kind: 'notSuspended', reason: 'no job control' });
  });

  it("opens the ticket's page with w, and says the web-url setting is missing when it is", async () => {
    const id = await firstTicket();
    const missing = await (await openRunner()).act(id, { kind: 'browse' });
    expect(missing).toMatchObject({ kind: 'actionFailed', id });
    expect(failureText((missing as { error: unknown }).error)).toContain('no web-url setting');

    const dir = await mkdtemp(join(tmpdir(), 'tkt-triage-browse-'));
    try {
      const browser = join(dir, 'browser.sh');
      await writeFile(browser, `#!/bin/sh\nprintf "%s" "$1" > ${join(dir, 'url.tmp')} && mv ${join(dir, 'url.tmp')} ${join(dir, 'url')}\n`);
      await chmod(browser, 0o755);
      expect((await h.cli(['config', 'set', 'web-url', 'https://desk.example.com/t/{id}'])).code).toBe(0);
      const opened = await (await openRunner({}, { BROWSER: browser, PATH: process.env.PATH! })).act(id, { kind: 'browse' });
      expect(opened).toMatchObject({ kind: 'acted', id, done: `opened https://desk.example.com/t/${id} in the browser` });
      // Nothing to open it with: the URL, as not done (triage shows it without a tick).
      const noBrowser = await (await openRunner({}, { BROWSER: join(dir, 'no-such-browser'), PATH: dir })).act(id, { kind: 'browse' });
      expect(noBrowser).toMatchObject({ kind: 'acted', id, done: { notDone: `no browser to open it: https://desk.example.com/t/${id}` } });
      expect(await vi.waitFor(() => readFile(join(dir, 'url'), 'utf8'), { timeout: 5000, interval: 20 })).toBe(`https://desk.example.com/t/${id}`);
    } finally {
      await h.cli(['config', 'unset', 'web-url']);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads the technicians for the assign picker, by name and username', async () => {
    const { perform } = await openRunner();
    const event = await perform({ kind: 'readTechnicians', id: 7 });
    expect(event).toMatchObject({ kind: 'techniciansRead', id: 7, choices: expect.arrayContaining([expect.objectContaining({ label: 'Tom Tech (tech)' })]) });
  });
});
