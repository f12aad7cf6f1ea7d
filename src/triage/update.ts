// How triage changes: update(state, event) gives the next state and the effects to run, and
// does nothing else (no IO, no clock, no promises), so that every behaviour of the screen can be
// tested as data in, data out. The effects are run by effects.ts, whose results come back here
// as events; the keys and pastes are handled in press.ts.
import { sanitizeInline } from '../output/sanitize.js';
import { kebabCase } from '../listing/query.js';
import { tktCommand } from '../config/session.js';
import { IN_DOUBT } from '../errors.js';
import type { Effect, Refreshed, TriageEvent } from './events.js';
import { keyFor } from './keys.js';
import { failureText } from './failure.js';
import { layoutFor, type TerminalSize } from './layout.js';
import { pressKey, pressTypedAhead, paste, takeTurns } from './press.js';
import { detailRow, rowsOf } from './rows.js';
import { currentRow, detailKey, initialState, withDraft, withRows, type DraftKind, type StartOptions, type TriageState } from './state.js';
import { resolveTo, templatesRead } from './templates.js';
import { clearMarksOnMove, markChanges, readByTimer, tick, waitFor } from './interval.js';
import { end, KEPT_DRAFT, startLoad, unchanged, type Step } from './transitions.js';
import { arrived, holdingKeys } from './typed-ahead.js';

export type { Step };

/** The first state, and the first load (and with `intervalMs`, the first wait). */
export function start(view: string, terminal: TerminalSize, options: StartOptions = {}): Step {
  const { intervalMs } = options;
  const first = startLoad(initialState(view, terminal, options), view);
  return intervalMs === undefined ? first : { ...first, effects: [...first.effects, waitFor(intervalMs)] };
}

export function update(state: TriageState, event: TriageEvent): Step {
  if (state.ended) return unchanged(overAfterLeaving(state, event));
  return withDetailWanted(handle(state, event));
}

function handle(state: TriageState, event: TriageEvent): Step {
  switch (event.kind) {
    case 'key':
      return clearMarksOnMove(state, pressKey(state, event.input, event.key));
    case 'paste':
      return paste(state, event.text);
    case 'resized':
      return unchanged({ ...state, terminal: { columns: event.columns, rows: event.rows } });
    case 'signalled':
      return end(state, 'interrupted');
    case 'notSuspended':
      return unchanged({ ...state, status: { text: `Ctrl-Z: ${event.reason}, so the screen stays`, tone: 'info' } });
    case 'tick':
      return tick(state);
    case 'viewLoaded':
      return unchanged(viewLoaded(state, event));
    case 'viewFailed':
      return viewFailed(state, event);
    case 'detailRead':
      return unchanged(detailRead(state, event));
    case 'detailFailed': {
      if (event.generation !== state.detailGeneration) return unchanged(state);
      const read = { ...state, reading: setWithout(state.reading, detailKey(event.id, event.width)) };
      // Said only while the ticket is highlighted: once it is not, the next highlight reads it again.
      return unchanged(currentRow(read)?.id === event.id ? { ...read, failedRead: { id: event.id, error: failureText(event.error, state.login) } } : read);
    }
    case 'acted':
      return takeTurns(unchanged(acted(arrived(state, 'editor').state, event)));
    case 'actionFailed':
      return takeTurns(unchanged(actionFailed(arrived(state, 'editor').state, event)));
    case 'terminalLent':
      return unchanged(arrived(state, 'editor', 'pager').state);
    case 'shown':
      return unchanged(arrived(state, 'pager').state);
    case 'notShown':
    case 'showFailed': {
      const reason = event.kind === 'notShown' ? event.reason : failureText(event.error, state.login);
      return unchanged({ ...arrived(state, 'pager').state, status: { text: `✗ show #${event.id}: ${reason}`, tone: 'error' } });
    }
    case 'techniciansRead': {
      const { state: ready, typed } = arrived(state, 'technicians');
      // Not over a prompt or picker opened meanwhile: what is typed there would be lost.
      if (ready.overlay !== undefined) return unchanged(ready);
      const picker = { kind: 'picker', title: `Assign #${event.id} to`, query: '', cursor: 0, choices: event.choices, selected: 0, assigns: event.id } as const;
      return pressTypedAhead(unchanged({ ...ready, overlay: picker }), typed);
    }
    case 'techniciansFailed':
      return unchanged({ ...arrived(state, 'technicians').state, status: { text: `✗ assign: ${failureText(event.error, state.login)}`, tone: 'error' } });
    case 'resolveChecked':
      return resolveChecked(state, event);
    case 'resolveRefused': {
      const ready = arrived(state, 'resolveCheck').state;
      // Notes kept from an earlier try stay kept, and are saved on leaving.
      const kept = ready.drafts.resolution.has(event.id) ? `; ${KEPT_DRAFT.resolution}` : '';
      return unchanged({ ...ready, status: { text: `✗ resolving #${event.id}: ${failureText(event.error, state.login)}${kept}`, tone: 'error' } });
    }
    case 'templatesRead': {
      const { state: ready, typed } = arrived(state, 'templates');
      return pressTypedAhead(holdingKeys(templatesRead(ready, event)), typed);
    }
    case 'templatesFailed':
      return unchanged({ ...arrived(state, 'templates').state, status: { text: `✗ templates: ${failureText(event.error, state.login)}`, tone: 'error' } });
  }
}

/** Left while an action was being sent: what it did, once it is over, for the report after the screen. */
function overAfterLeaving(state: TriageState, event: TriageEvent): TriageState {
  const { running, left } = state;
  if (running === undefined || left === undefined || (event.kind !== 'acted' && event.kind !== 'actionFailed') || event.id !== running.id) return state;
  const over = event.kind === 'acted' ? acted(state, event) : actionFailed(state, event);
  // The text not sent is saved on leaving, and said then: not "r opens it again".
  const outcome = event.kind === 'acted' ? over.status!.text : leftFailing(state, running.verb, event);
  return { ...over, left: { ...left, outcomes: [...left.outcomes, outcome] } };
}

/** An action that failed after the screen was left, said on the shell's screen: in doubt, how to look at the ticket there. */
function leftFailing(state: TriageState, verb: string, event: Extract<TriageEvent, { kind: 'actionFailed' }>): string {
  if (event.inDoubt === undefined) return `✗ ${verb} #${event.id}: ${failureText(event.error, state.login)}`;
  const show = tktCommand({ globals: state.login.globals, env: state.login.env }, `show ${event.id}`);
  return `? ${verb} #${event.id}: ${IN_DOUBT}: look at it with "${show}" ${beforeAgain(verb)}`;
}

/** What an in-doubt action is not to be done before: "before replying again". */
const beforeAgain = (verb: string) => `before ${verb.replace(/ to$/, '')} again`;

/**
 * s's ticket read: resolved, it is said so, as the action would say it; open, the notes are asked
 * for (the kept ones, or the templates first), with what was typed after s. Its row and detail
 * from the ticket read, which the editor's heading then takes too.
 */
function resolveChecked(state: TriageState, event: Extract<TriageEvent, { kind: 'resolveChecked' }>): Step {
  const { state: ready, typed } = arrived(state, 'resolveCheck');
  const read = refreshedRow(ready, event.id, { ticket: event.ticket });
  if (event.unchanged !== undefined) return unchanged({ ...read, status: { text: `✓ #${event.id} ${sanitizeInline(event.unchanged)}`, tone: 'ok' } });
  // Notes kept from a failed resolve open as they were: a template would replace them.
  const asked: Step = read.drafts.resolution.has(event.id)
    ? resolveTo(read, event.id)
    : { state: read, effects: [{ kind: 'readTemplates', id: event.id, purpose: 'resolve' }] };
  return pressTypedAhead(holdingKeys(asked), typed);
}

function viewLoaded(state: TriageState, event: Extract<TriageEvent, { kind: 'viewLoaded' }>): TriageState {
  // Overtaken while it ran: its tickets may belong to a view no longer shown.
  if (event.token !== state.loading?.token) return state;
  const { saysReadAgain } = state.loading;
  // Read again means every detail too, one that failed included.
  const loaded: TriageState = {
    ...state,
    loading: undefined,
    loadFailed: false,
    loadedOnce: true,
    details: new Map(),
    reading: new Set(),
    detailGeneration: state.detailGeneration + 1,
    failedRead: undefined,
    // The title line counts the tickets; a reload says it happened.
    status: saysReadAgain ? { text: `✓ ${kebabCase(state.view)} read again`, tone: 'ok' } : undefined,
  };
  return markChanges(state, withRows(loaded, rowsOf(event.items), state.filter), event.items);
}

function viewFailed(state: TriageState, event: Extract<TriageEvent, { kind: 'viewFailed' }>): Step {
  if (event.token !== state.loading?.token) return unchanged(state);
  // The first: the run fails as any command's would (a refused token: exit 4 and its hint).
  if (!state.loadedOnce) return { state: { ...state, ended: true }, effects: [{ kind: 'fail', error: event.error }] };
  const failed: TriageState = { ...state, loading: undefined, loadFailed: true };
  // The timer's: said in the title line, the status line kept for what the last action did.
  if (readByTimer(state) && state.interval !== undefined) {
    return unchanged({ ...failed, interval: { ...state.interval, token: undefined, failed: failureText(event.error, state.login) } });
  }
  const text = `could not load ${kebabCase(state.view)}: ${failureText(event.error, state.login)}`;
  return unchanged({ ...failed, status: { text, tone: 'error' } });
}

function detailRead(state: TriageState, event: Extract<TriageEvent, { kind: 'detailRead' }>): TriageState {
  // Read before the view was read again: the ticket may have changed since.
  if (event.generation !== state.detailGeneration) return state;
  const read = { ...state, reading: setWithout(state.reading, detailKey(event.id, event.width)) };
  const kept = state.details.get(event.id);
  // The ticket was read anew meanwhile (after an action): this text is of the older one.
  if (kept !== undefined && kept.ticket !== event.ticket) return read;
  const texts = new Map(kept?.texts).set(event.width, event.text);
  return { ...read, details: new Map(state.details).set(event.id, { ticket: event.ticket, texts }) };
}

/** After an action: its row and detail from the ticket as the service now has it. */
function acted(state: TriageState, event: Extract<TriageEvent, { kind: 'acted' }>): TriageState {
  // Done gets a tick; what was not done though nothing failed is said in the neutral tone.
  const status =
    typeof event.done === 'string'
      ? { text: `✓ ${sanitizeInline(event.done)}`, tone: 'ok' as const }
      : { text: sanitizeInline(event.done.notDone), tone: 'info' as const };
  const sent = state.running?.sends;
  // Sent: what was kept of it is gone.
  const next: TriageState = { ...state, running: undefined, ...(sent === undefined ? {} : keptAs(state, sent, event.id, undefined, false)) };
  if ('error' in event.refreshed) {
    const text = `${status.text}; the row could not be refreshed: ${failureText(event.refreshed.error, state.login)}`;
    return refreshedRow({ ...next, status: { ...status, text } }, event.id, event.refreshed);
  }
  return refreshedRow({ ...next, status }, event.id, event.refreshed);
}

/** The ticket's row and detail as read after an action; not read, its detail is read again once highlighted. */
function refreshedRow(state: TriageState, id: number, read: Refreshed): TriageState {
  if ('error' in read) return { ...state, details: mapWithout(state.details, id) };
  const { ticket } = read;
  const details = new Map(state.details).set(id, { ticket, texts: new Map() });
  const rows = state.rows.map((row) => (row.id === id ? detailRow(id, ticket) : row));
  return withRows({ ...state, details }, rows, state.filter);
}

/**
 * The drafts with the text last written for ticket `id` kept (a blank one, or none when
 * `written` is undefined, drops the one kept before); in doubt (it may have been sent) when this
 * send or an earlier one of it was.
 */
function keptAs(state: TriageState, kind: DraftKind, id: number, written: string | undefined, inDoubt: boolean): Pick<TriageState, 'drafts' | 'draftsInDoubt'> {
  const drafts = written === undefined ? { ...state.drafts, [kind]: mapWithout(state.drafts[kind], id) } : withDraft(state.drafts, kind, id, written);
  const doubted = new Set(state.draftsInDoubt[kind]);
  if (drafts[kind].has(id) && (inDoubt || doubted.has(id))) doubted.add(id);
  else doubted.delete(id);
  return { drafts, draftsInDoubt: { ...state.draftsInDoubt, [kind]: doubted } };
}

function actionFailed(state: TriageState, event: Extract<TriageEvent, { kind: 'actionFailed' }>): TriageState {
  const kind = state.running?.sends;
  const verb = state.running?.verb ?? 'acting on';
  // The text last written is kept (a blank one drops the one kept before).
  const kept = kind === undefined || event.unsent === undefined ? {} : keptAs(state, kind, event.id, event.unsent, event.inDoubt !== undefined);
  const next: TriageState = { ...state, ...kept, running: undefined };
  const keptSaid = kind !== undefined && next.drafts[kind].has(event.id) ? `; ${KEPT_DRAFT[kind]}` : '';
  if (event.inDoubt !== undefined) {
    // Not a failure to send again: it may have been done, which the ticket read again shows (README, Triage).
    const text = `? ${verb} #${event.id}: ${IN_DOUBT}: check the ticket (${keyFor('show')} shows it) ${beforeAgain(verb)}${keptSaid}`;
    return refreshedRow({ ...next, status: { text, tone: 'error' } }, event.id, event.inDoubt);
  }
  // The reason first, which a narrow width must not cut; what was kept after it (README, Triage).
  const text = `✗ ${verb} #${event.id}: ${failureText(event.error, state.login)}${keptSaid}`;
  return { ...next, status: { text, tone: 'error' } };
}

/**
 * The highlighted ticket's detail, when it is shown and neither read nor being read at this
 * width: a read to start. Drawing only shows what is here.
 */
function withDetailWanted({ state, effects }: Step): Step {
  const row = currentRow(state);
  // A failed read is shown until the highlight leaves the ticket.
  const next = state.failedRead !== undefined && state.failedRead.id !== row?.id ? { ...state, failedRead: undefined } : state;
  if (row === undefined || next.ended || next.overlay !== undefined || next.failedRead !== undefined) return { state: next, effects };
  const { width } = layoutFor(next.terminal, next.visible.length);
  const kept = next.details.get(row.id);
  const key = detailKey(row.id, width);
  if (kept?.texts.has(width) === true || next.reading.has(key)) return { state: next, effects };
  const read: Effect = { kind: 'readDetail', id: row.id, width, ticket: kept?.ticket, generation: next.detailGeneration };
  return { state: { ...next, reading: new Set(next.reading).add(key) }, effects: [...effects, read] };
}

/** The map without `key`; the same map when it has none. */
function mapWithout<K, V>(map: ReadonlyMap<K, V>, key: K): ReadonlyMap<K, V> {
  if (!map.has(key)) return map;
  const copy = new Map(map);
  copy.delete(key);
  return copy;
}

function setWithout(set: ReadonlySet<string>, key: string): ReadonlySet<string> {
  const copy = new Set(set);
  copy.delete(key);
  return copy;
}
