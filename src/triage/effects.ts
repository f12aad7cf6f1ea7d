// Runs what update.ts asks for (reads, actions, the editor, the pager) and reports each result as
// the event that update.ts takes it in: never a change of state here. A load overtaken by a
// later one is stopped, and reports nothing.
import { plans } from '../api/plans.js';
import { ExitCode, exitCodeOf, outcomeUnknown, typedTextOf } from '../errors.js';
import type { ApiClient } from '../api/types.js';
import { personLabel, type Lookups } from '../lookups/types.js';
import { readTicket } from '../model/ticket.js';
import { viewTickets } from '../listing/pages.js';
import { ticketHeading } from '../reading/ticket-heading.js';
import type { FilledTemplate } from '../desk/templates.js';
import type { TicketActions } from './actions.js';
import type { ActionOutcome, Effect, Refreshed, TicketAction, TriageEvent } from './events.js';
import type { TemplatePurpose } from './picker.js';
import { realTimer, type WatchTimer } from '../watch/watch.js';

export interface EffectDeps {
  /** The client of the login as it is now (the `ctx` of the actions and lookups gives the same). */
  api(): Promise<ApiClient>;
  /** Forgets the login: the next request reads it again from the config folder (fresh-login.ts). */
  readLoginAgain(): void;
  lookups: Lookups;
  actions: TicketActions;
  /** The run's: aborted, loads and the --interval timer stop. */
  signal: AbortSignal;
  /** The --interval timer: real time unless a test gives a clock it moves. */
  timer?: WatchTimer | undefined;
  /** The reply's message, written in the editor, which has the terminal meanwhile. */
  editor(options: { message: string; default?: string }): Promise<string>;
  /** Shows `text` in the pager, which has the terminal meanwhile; says why not when it could not be run. */
  page(text: string): Promise<string | undefined>;
  /** Suspends the run to the shell until it is continued (Context.suspend); why not, when it could not. */
  suspend(): Promise<string | undefined>;
  /** The names of the reply templates (tkt templates list). */
  templateNames(): Promise<string[]>;
  /** Template `name` filled for the ticket, as `tkt reply --template` fills it; a missing value is an error. */
  fillTemplate(name: string, ticket: unknown): Promise<FilledTemplate>;
  /** The full `tkt show` text of a ticket at `width` columns, for the pager. */
  renderDetail(ticket: unknown, width: number): Promise<string>;
  /** The same with the description right after the title and status: the detail pane shows its first lines. */
  renderPane(ticket: unknown, width: number): Promise<string>;
}

/** The effects that reach the runner; ending the run is the program's (program.ts). */
export type RunnableEffect = Exclude<Effect, { kind: 'end' | 'fail' }>;

export type EffectRunner = (effect: RunnableEffect) => Promise<TriageEvent | undefined>;

export function createEffectRunner(deps: EffectDeps): EffectRunner {
  /** The load whose answer the screen waits for. */
  let latestLoad: AbortController | undefined;
  const fetchTicket = async (id: number): Promise<unknown> => (await (await deps.api()).send(plans.getTicket(id))).body;
  /**
   * A failure, as reported: one that says the login is refused or missing (a 401, a token
   * expired, a logout in another shell) has the next request read the login again, so that a
   * `tkt login` in another shell lets the screen go on (README, Triage).
   */
  const failed = (error: unknown): unknown => {
    if (exitCodeOf(error) === ExitCode.notAuthenticated) deps.readLoginAgain();
    return error;
  };

  async function loadView(view: string, token: number): Promise<TriageEvent | undefined> {
    // R, a view switched to, the --interval timer: each reads the login again too.
    deps.readLoginAgain();
    latestLoad?.abort();
    const load = new AbortController();
    latestLoad = load;
    try {
      const items = await viewTickets(await deps.api(), view, AbortSignal.any([deps.signal, load.signal]));
      return load.signal.aborted ? undefined : { kind: 'viewLoaded', token, items };
    } catch (error) {
      return load.signal.aborted ? undefined : { kind: 'viewFailed', token, error: failed(error) };
    }
  }

  async function readDetail(effect: Extract<Effect, { kind: 'readDetail' }>): Promise<TriageEvent> {
    const { id, width, generation } = effect;
    try {
      const ticket = effect.ticket ?? (await fetchTicket(id));
      return { kind: 'detailRead', id, width, generation, ticket, text: await deps.renderPane(ticket, width) };
    } catch (error) {
      return { kind: 'detailFailed', id, width, generation, error: failed(error) };
    }
  }

  function run(id: number, action: Exclude<TicketAction, { kind: 'reply' | 'resolveInEditor' }>): Promise<ActionOutcome> {
    switch (action.kind) {
      case 'pickUp':
        return deps.actions.pickUp(id);
      case 'markRead':
        return deps.actions.markRead(id);
      case 'browse':
        return deps.actions.browse(id);
      case 'reopen':
        return deps.actions.reopen(id);
      case 'close':
        return deps.actions.close(id);
      case 'resolve':
        return deps.actions.resolve(id, action.notes);
      case 'assign':
        return deps.actions.assign(id, action.user);
    }
  }

  /** The action, then the ticket read again for its row. */
  async function act(id: number, action: TicketAction): Promise<TriageEvent> {
    /** What the user wrote that the action sends (a reply, resolution notes), once it is written. */
    let written: string | undefined;
    let done: ActionOutcome;
    // As each read of the view: a `tkt logout` in another shell is met here, not only at `R`
    // (the service has no logout: the token held would still be taken).
    deps.readLoginAgain();
    try {
      if (action.kind === 'reply' || action.kind === 'resolveInEditor') {
        const ticket = action.ticket ?? (await fetchTicket(id));
        const filled = action.template === undefined ? undefined : await deps.fillTemplate(action.template, ticket);
        const heading = ticketHeading(action.kind === 'reply' ? 'Reply to' : 'Resolve', id, readTicket(ticket));
        written = await deps.editor({ message: heading, default: filled?.body ?? action.draft });
        done = action.kind === 'reply' ? await deps.actions.reply(id, ticket, written, filled?.subject) : await deps.actions.resolve(id, written);
      } else {
        if (action.kind === 'resolve') written = action.notes;
        done = await run(id, action);
      }
    } catch (error) {
      // A text written is kept for the next try, also one saved by an editor that then failed (vi's :cq, Ctrl-C).
      const unsent = written ?? typedTextOf(error);
      // Sent and its answer lost (docs/cli.md section 8): the ticket as read now may show it done.
      if (outcomeUnknown(error)) return { kind: 'actionFailed', id, error, unsent, inDoubt: await reread(id) };
      return { kind: 'actionFailed', id, error: failed(error), unsent };
    }
    return { kind: 'acted', id, done, refreshed: await reread(id) };
  }

  /** The ticket read again after an action, for its row and detail; or why it could not be. */
  async function reread(id: number): Promise<Refreshed> {
    try {
      return { ticket: await fetchTicket(id) };
    } catch (error) {
      return { error: failed(error) };
    }
  }

  async function showInPager(id: number, width: number, cached: unknown): Promise<TriageEvent> {
    try {
      const text = await deps.renderDetail(cached ?? (await fetchTicket(id)), width);
      const notShown = await deps.page(text);
      // Printed instead, the ticket would land on the shell's screen, under triage's.
      return notShown === undefined ? { kind: 'shown', id } : { kind: 'notShown', id, reason: notShown };
    } catch (error) {
      return { kind: 'showFailed', id, error: failed(error) };
    }
  }

  async function readTechnicians(id: number): Promise<TriageEvent> {
    try {
      const technicians = await deps.lookups.entries('assignee');
      const choices = technicians.map((entry) => ({ label: personLabel(entry), value: String(entry.id) }));
      return { kind: 'techniciansRead', id, choices };
    } catch (error) {
      return { kind: 'techniciansFailed', error: failed(error) };
    }
  }

  async function checkResolve(id: number): Promise<TriageEvent> {
    // The start of an action: a logout in another shell is met here, as in act.
    deps.readLoginAgain();
    try {
      return { kind: 'resolveChecked', id, ...(await deps.actions.checkResolve(id)) };
    } catch (error) {
      return { kind: 'resolveRefused', id, error: failed(error) };
    }
  }

  async function readTemplates(id: number, purpose: TemplatePurpose): Promise<TriageEvent> {
    try {
      return { kind: 'templatesRead', id, purpose, names: await deps.templateNames() };
    } catch (error) {
      return { kind: 'templatesFailed', error: failed(error) };
    }
  }

  return async (effect) => {
    switch (effect.kind) {
      case 'loadView':
        return loadView(effect.view, effect.token);
      case 'readDetail':
        return readDetail(effect);
      case 'act':
        return act(effect.id, effect.action);
      case 'showInPager':
        return showInPager(effect.id, effect.width, effect.ticket);
      case 'readTechnicians':
        return readTechnicians(effect.id);
      case 'checkResolve':
        return checkResolve(effect.id);
      case 'readTemplates':
        return readTemplates(effect.id, effect.purpose);
      case 'suspend': {
        const reason = await deps.suspend();
        return reason === undefined ? undefined : { kind: 'notSuspended', reason };
      }
      case 'wait':
        await (deps.timer ?? realTimer).sleep(effect.ms, deps.signal);
        return deps.signal.aborted ? undefined : { kind: 'tick' };
    }
  };
}
