// The triage session without a screen: keys pressed as the screen passes them, against a
// sandbox, through a client that can hold chosen requests back, so answers can be made to
// arrive late or fail on cue.
import { describe, expect, it } from 'vitest';
import type { ApiClient, RequestPlan } from '../../src/api/types.js';
import { createLookups } from '../../src/lookups/index.js';
import { createTicketActions } from '../../src/triage/actions.js';
import { pickerMatches, TriageSession, type KeyPress, type TriageDeps, type TriageState } from '../../src/triage/session.js';
import type { Harness } from '../helpers/harness.js';
import { routeCount, ticketById, useHarness } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({ login: 'tech' }, (harness) => (h = harness));

const PAGE = 10;

/** A gate the requests `matching` wait at until it is opened. */
function gate(matching: (plan: RequestPlan) => boolean) {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { matching, opened, open };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

interface Opened {
  session: TriageSession;
  /** Holds back the requests that match until the gate it returns is opened. */
  hold(matching: (plan: RequestPlan) => boolean): ReturnType<typeof gate>;
  /** Resolves once no request is in flight and the session has handled the last answer. */
  idle(): Promise<void>;
  /** Resolves once the session's state passes `test`. */
  until(test: (state: TriageState) => boolean): Promise<TriageState>;
  press(input: string, key?: KeyPress): void;
  /** Keys typed faster than they are read: one chunk, as the screen passes it on. */
  type(text: string): void;
}

async function openSession(deps: Partial<TriageDeps> = {}): Promise<Opened> {
  const { ctx } = await h.context({ tty: true });
  const real = await ctx.api();
  const gates: ReturnType<typeof gate>[] = [];
  let inFlight = 0;
  const client: ApiClient = {
    ...real,
    async send(plan) {
      inFlight += 1;
      try {
        await gates.find((held) => held.matching(plan))?.opened;
        return await real.send(plan);
      } finally {
        inFlight -= 1;
      }
    },
  };
  const lookups = createLookups({ ...ctx, io: { ...ctx.io, canPrompt: false } });
  const session = new TriageSession(
    {
      ctx,
      client,
      lookups,
      actions: createTicketActions(ctx, client, lookups),
      terminal: { suspend: (work) => work() },
      page: async () => undefined,
      renderDetail: async (ticket) => JSON.stringify(ticket),
      ...deps,
    },
    'MyOpenOrUnassigned',
  );
  const until = (test: (state: TriageState) => boolean) =>
    new Promise<TriageState>((resolve) => {
      const check = () => {
        if (!test(session.snapshot())) return;
        unsubscribe();
        resolve(session.snapshot());
      };
      const unsubscribe = session.subscribe(check);
      check();
    });
  return {
    session,
    hold(matching) {
      const held = gate(matching);
      gates.push(held);
      return held;
    },
    until,
    async idle() {
      do await settle();
      while (inFlight > 0);
      await settle();
    },
    press: (input, key = {}) => session.press(input, key, PAGE),
    type: (text) => session.press(text, {}, PAGE),
  };
}

const isList = (listType: string) => (plan: RequestPlan) => plan.path === '/api/TicketsApi' && (plan.json as { listType?: string }).listType === listType;

describe('triage session', () => {
  it('drops the answer of a load that a view switch overtook', async () => {
    const triage = await openSession();
    void triage.session.load();
    await triage.until((state) => !state.loading);
    // R reads the view again, slowly; meanwhile the user switches to another view.
    const slow = triage.hold(isList('MyOpenOrUnassigned'));
    triage.press('R');
    triage.press('v');
    triage.type('unassigned-t');
    triage.press('', { return: true });
    const switched = await triage.until((state) => state.view === 'UnassignedTickets' && !state.loading);
    const unassigned = switched.rows.map((row) => row.id);
    expect(switched.rows.every((row) => row.summary.assignee === undefined)).toBe(true);

    slow.open();
    await triage.idle();
    const after = triage.session.snapshot();
    expect(after.view).toBe('UnassignedTickets');
    expect(after.rows.map((row) => row.id)).toEqual(unassigned);
    expect(after.status?.text ?? '').not.toContain('read again');
  });

  /**
   * A session on its first ticket, whose detail read has just failed (the ticket was deleted for
   * the read, then restored); `whileFailing` runs before the ticket is back.
   */
  async function afterFailedDetail(whileFailing: (detail: () => ReturnType<TriageSession['detailText']>, triage: Opened) => Promise<void> = async () => undefined) {
    const triage = await openSession();
    void triage.session.load();
    const [first] = (await triage.until((state) => !state.loading)).visible;
    const ticket = ticketById(h, first!.id);
    const detail = () => triage.session.detailText(first!.id, 80, false);
    ticket.isDeleted = true;
    try {
      detail();
      await triage.until(() => detail().error !== undefined);
      await whileFailing(detail, triage);
    } finally {
      ticket.isDeleted = false;
    }
    return { triage, id: first!.id, title: ticket.title, detail };
  }

  it('reads a detail that failed again when the ticket is next highlighted, not at every frame', async () => {
    const { triage, title, detail } = await afterFailedDetail(async (failing, opened) => {
      expect(failing().error).toMatch(/was not found/);
      const reads = routeCount(h, 'GET /api/TicketsApi/{id}');
      // Drawn again while still highlighted: the failure shows, nothing is sent.
      failing();
      await opened.idle();
      expect(routeCount(h, 'GET /api/TicketsApi/{id}')).toBe(reads);
    });
    triage.press('j');
    triage.press('k');
    expect(detail()).toEqual({});
    await triage.until(() => detail().text !== undefined);
    expect(detail().text).toContain(`"title":${JSON.stringify(title)}`);
  });

  it('reads a detail that failed again on R, with the view', async () => {
    const { triage, id, detail } = await afterFailedDetail();
    triage.press('R');
    await triage.until((state) => !state.loading && state.status?.text.includes('read again') === true);
    expect(triage.session.current()?.id).toBe(id);
    expect(detail().error).toBeUndefined();
    await triage.until(() => detail().text !== undefined);
  });

  it('keeps a reply whose sending failed, and opens the editor with it on the next r', async () => {
    const defaults: (string | undefined)[] = [];
    const { ctx } = await h.context({ tty: true });
    const prompter = { ...ctx.prompter, editor: async (options: { message: string; default?: string }) => (defaults.push(options.default), 'Have you tried turning it off and on again?') };
    const triage = await openSession({ ctx: { ...ctx, prompter } });
    void triage.session.load();
    const id = (await triage.until((state) => !state.loading)).visible[0]!.id;

    h.sandbox.failNext('POST /api/TicketsApi/reply/{id}', 500);
    triage.press('r');
    const failed = await triage.until((state) => !state.busy && state.status?.tone === 'error');
    expect(failed.status?.text).toMatch(new RegExp(`^✗ replying to #${id} \\(your reply is kept: r opens it again\\): .*HTTP 500`));

    triage.press('r');
    await triage.until((state) => !state.busy && state.status?.tone === 'ok');
    expect(defaults).toEqual([undefined, 'Have you tried turning it off and on again?']);
    expect(h.sandbox.state.conversations.filter((entry) => entry.ticketId === id).map((entry) => entry.message)).toContain('Have you tried turning it off and on again?');

    // Sent: the draft is gone.
    triage.press('r');
    await triage.until((state) => !state.busy && defaults.length === 3);
    expect(defaults[2]).toBeUndefined();
  });

  it('says so in the status line when the pager cannot be run, instead of printing under the screen', async () => {
    const paged: string[] = [];
    const triage = await openSession({ page: async (text) => (paged.push(text), 'the pager "most" ($PAGER) could not be run') });
    await triage.session.load();
    await triage.until((state) => !state.loading);
    triage.press('', { return: true });
    const failed = await triage.until((state) => state.status?.tone === 'error');
    expect(failed.status?.text).toMatch(/^✗ show #\d+: the pager "most" \(\$PAGER\) could not be run$/);
    expect(paged).toHaveLength(1);
  });

  it('says when the service changed nothing, in the words of tkt pickup, resolve and close', async () => {
    const triage = await openSession();
    void triage.session.load();
    const id = (await triage.until((state) => !state.loading)).visible[0]!.id;
    /** Runs the keys of one action and resolves with what the status line then says. */
    const act = async (keys: () => void) => {
      keys();
      return (await triage.until((state) => !state.busy && state.status?.tone === 'ok')).status?.text;
    };
    const resolve = () => {
      triage.press('s');
      triage.type('Fixed\r');
    };
    const close = () => {
      triage.press('c');
      triage.press('y');
    };

    expect(await act(() => triage.press('p'))).toBe(`✓ picked up #${id}`);
    expect(await act(() => triage.press('p'))).toBe(`✓ #${id} already assigned to you, nothing changed`);
    expect(await act(resolve)).toBe(`✓ resolved #${id}`);
    expect(await act(resolve)).toBe(`✓ #${id} already resolved, nothing changed`);
    expect(await act(close)).toBe(`✓ closed #${id}`);
    expect(await act(close)).toBe(`✓ #${id} already closed, nothing changed`);
  });

  it('switches to the view whose name is typed: a whole name or its start before a name that merely holds it', async () => {
    const triage = await openSession();
    await triage.session.load();
    for (const [typed, view] of [
      ['unassigned', 'UnassignedTickets'],
      ['overdue', 'OverdueTickets'],
      ['my-overdue', 'MyOverdueTickets'],
      ['all-tickets', 'AllTickets'],
    ] as const) {
      triage.press('v');
      triage.type(`${typed}\r`);
      expect(triage.session.snapshot().view, typed).toBe(view);
    }
  });

  it('clears the filter when it switches view: the new view shows all its tickets', async () => {
    const triage = await openSession();
    await triage.session.load();
    triage.type('/printer\r');
    expect(triage.session.snapshot().filter).toBe('printer');
    triage.press('v');
    triage.type('unassigned-tickets\r');
    const switched = await triage.until((state) => state.view === 'UnassignedTickets' && !state.loading);
    expect(switched.filter).toBe('');
    expect(switched.visible).toEqual(switched.rows);
    expect(switched.rows.length).toBeGreaterThan(0);
    // Read again, the same view keeps it.
    triage.type('/mouse\r');
    triage.press('R');
    expect((await triage.until((state) => !state.loading)).filter).toBe('mouse');
  });
});

describe('pickerMatches', () => {
  const choices = ['my-open-or-unassigned', 'unassigned-tickets', 'all-unassigned', 'Una Smith (una)'].map((label) => ({ label, value: label }));
  const labels = (query: string) => pickerMatches(choices, query).map((choice) => choice.label);

  it('puts the choices that start with what is typed first, then those with a word starting so, then the rest, each in list order', () => {
    expect(labels('unassigned')).toEqual(['unassigned-tickets', 'my-open-or-unassigned', 'all-unassigned']);
    expect(labels('UNA')).toEqual(['unassigned-tickets', 'Una Smith (una)', 'my-open-or-unassigned', 'all-unassigned']);
    expect(labels('assigned')).toEqual(['my-open-or-unassigned', 'unassigned-tickets', 'all-unassigned']);
    expect(labels('')).toEqual(choices.map((choice) => choice.label));
  });

  it('puts an exact match before all', () => {
    const views = ['unassigned-tickets-old', 'unassigned-tickets'].map((label) => ({ label, value: label }));
    expect(pickerMatches(views, 'unassigned-tickets').map((choice) => choice.label)).toEqual(['unassigned-tickets', 'unassigned-tickets-old']);
  });
});
