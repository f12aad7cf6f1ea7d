// What the triage screen is at one moment, as plain data: update.ts makes each next state from
// the last and an event, view.ts draws it. Nothing here changes in place.
import type { LoginGlobals } from '../cmdutil/error-text.js';
import type { TerminalSize } from './layout.js';
import type { Choice, TemplatePurpose } from './picker.js';
import type { TriageRow } from './rows.js';
import type { Snapshot } from '../watch/events.js';
import { foldForMatch } from '../util/fold.js';
import type { KeyPress } from '../util/terminal-input.js';

export type Tone = 'info' | 'ok' | 'error';

/** Where the run acts, and with what login: said on the title line, in hints and in saved drafts. */
export interface TriageLogin {
  /** The profile the title line names; undefined when it goes without saying (README, Triage). */
  shownProfile: string | undefined;
  /** What a login hint repeats (errorHint): --profile, --url, TKT_TOKEN... */
  globals: LoginGlobals;
  env: Readonly<Record<string, string | undefined>>;
}

/** A run with no profile to name and no options to repeat in its hints. */
export const PLAIN_LOGIN: TriageLogin = { shownProfile: undefined, globals: {}, env: {} };

export type Ending = 'quit' | 'interrupted';

/** Text an action sends that the user wrote: kept when the service refuses it (drafts.ts). */
export type DraftKind = 'reply' | 'resolution';

interface PickerBase {
  kind: 'picker';
  title: string;
  query: string;
  /** Where in the query the cursor is (line-edit.ts). */
  cursor: number;
  choices: readonly Choice[];
  /** Index into the choices the query shows (pickerMatches). */
  selected: number;
}

/** What shows over the detail (the help over everything), with what answering it leads to. */
export type Overlay =
  /** `top`: the first of its key lines shown, when they are more than the screen holds (help.ts). */
  | { kind: 'help'; top: number }
  | { kind: 'prompt'; label: string; text: string; cursor: number; resolves: number }
  | { kind: 'confirm'; question: string; closes: number }
  | (PickerBase & { assigns: number })
  | (PickerBase & { switchesView: true })
  | (PickerBase & { fillsTemplate: { id: number; purpose: TemplatePurpose } });

export interface Detail {
  ticket: unknown;
  /** Its `tkt show` text, by the width it was rendered at. */
  texts: ReadonlyMap<number, string>;
}

/** --interval: the view read again every `ms` (interval.ts), and what the last read held. */
export interface IntervalReads {
  ms: number;
  /** The load started by the timer: its answer leaves the status line as it was. */
  token: number | undefined;
  last: { view: string; tickets: Snapshot } | undefined;
  /**
   * Why the last read by the timer failed, until a read succeeds: said in the title line, so that
   * it never takes the status line from what an action did, nor says it again every interval.
   */
  failed: string | undefined;
}

/** The action in flight on a ticket: other actions wait for it. */
export interface Running {
  id: number;
  /** As the status line says it: "picking up". */
  verb: string;
  /** What the user wrote that it sends, if anything. */
  sends: DraftKind | undefined;
}

/** A key or a paste typed while what a key opened is on its way (typed-ahead.ts). */
export type TypedAhead = { kind: 'key'; input: string; key: KeyPress } | { kind: 'paste'; text: string };

/** What an action does to the highlighted ticket, as the service is asked it. */
export type TicketAction =
  | { kind: 'pickUp' }
  | { kind: 'markRead' }
  | { kind: 'browse' }
  | { kind: 'reopen' }
  | { kind: 'close' }
  | { kind: 'resolve'; notes: string }
  | { kind: 'assign'; user: string }
  /**
   * The ticket when it was read already; the editor opens with the draft kept from a reply that
   * failed, or with the template `template` filled for the ticket.
   */
  | { kind: 'reply'; ticket: unknown; draft: string | undefined; template?: string | undefined }
  /**
   * The editor opens with the template filled for the ticket, or with the notes kept from a
   * resolve that failed; what is saved is the resolution notes.
   */
  | { kind: 'resolveInEditor'; ticket: unknown; draft: string | undefined; template?: string | undefined };

/**
 * What waits for the action running (typed-ahead.ts): a key typed over the list, with the ticket
 * highlighted then (`on`; none for what is typed after a key that opens something, which is
 * that thing's), or an action chosen (a template, a technician) for ticket `on`.
 */
export type Queued = { typed: TypedAhead; on: number | undefined } | { action: TicketAction; on: number };

/**
 * What a key opened that comes only after an effect: a picker once its choices are read, s's
 * question once the ticket is read (`resolveCheck`), the editor, the pager.
 */
export type Awaited = 'technicians' | 'resolveCheck' | 'templates' | 'editor' | 'pager';

export interface TriageState {
  login: TriageLogin;
  /** The list type shown. */
  view: string;
  rows: readonly TriageRow[];
  /** The rows the filter lets through, in list order. */
  visible: readonly TriageRow[];
  /** Index into `visible`. */
  selected: number;
  filter: string;
  /** Where in the filter the cursor is (line-edit.ts): at its end when it is set otherwise than by typing. */
  filterCursor: number;
  /** Typing the filter: keys go to it until Enter or Esc. */
  filtering: boolean;
  /** The load whose answer the screen waits for; a later load overtakes it, and its answer is dropped. */
  loading: { token: number; saysReadAgain: boolean } | undefined;
  /** How many loads were started: the next one's token. */
  loads: number;
  /** The last load failed: the rows are an earlier answer's, or none after a switch of view. */
  loadFailed: boolean;
  /** A load has succeeded: from then on a failed load is said on the screen, not the end of the run. */
  loadedOnce: boolean;
  /** Tickets read for the detail, kept until the view is read again. */
  details: ReadonlyMap<number, Detail>;
  /** Detail reads in flight, by detailKey. */
  reading: ReadonlySet<string>;
  /** Counts the times the view was read: a detail read started before is stale. */
  detailGeneration: number;
  /**
   * The highlighted ticket's failed read, shown until the highlight leaves it: failures are not
   * kept, so the next highlight reads it again, but every frame drawn meanwhile does not.
   */
  failedRead: { id: number; error: string } | undefined;
  /**
   * Text written but not sent (the service refused it), by kind and ticket: r opens the editor
   * with a reply, s the prompt (or the editor, for more than a line) with resolution notes.
   */
  drafts: Readonly<Record<DraftKind, ReadonlyMap<number, string>>>;
  /** The drafts a send in doubt may have delivered: never said to be not sent (README, Triage). */
  draftsInDoubt: Readonly<Record<DraftKind, ReadonlySet<number>>>;
  running: Running | undefined;
  /** Keys typed and actions chosen while an action ran: done in turn once it is over, in order. */
  queued: readonly Queued[];
  /**
   * Left (q, Ctrl-C, a signal) with an action being sent: what it did once it is over, said after
   * the screen; and the keys that waited their turn, not done.
   */
  left: { outcomes: readonly string[]; notDone: readonly string[] } | undefined;
  /** What failed of the actions done in turn: said until the last of them is over. */
  failedInTurn: string | undefined;
  /** What the last action did, or what is going on. */
  status: { text: string; tone: Tone } | undefined;
  overlay: Overlay | undefined;
  /** Something a key opened is on its way: what is typed meanwhile waits for it, in order. */
  opening: { awaits: Awaited; typed: readonly TypedAhead[] } | undefined;
  terminal: TerminalSize;
  /** Quit, interrupted or failed: nothing more happens. */
  ended: boolean;
  interval: IntervalReads | undefined;
  /** Rows added or changed by the last read (with --interval), marked until the highlight moves. */
  marked: ReadonlySet<number>;
}

export const detailKey = (id: number, width: number) => `${id}@${width}`;

/** How a run starts, besides its view and the terminal's size. */
export interface StartOptions {
  /** --interval, in milliseconds. */
  intervalMs?: number | undefined;
  login?: TriageLogin | undefined;
}

export function initialState(view: string, terminal: TerminalSize, { intervalMs, login = PLAIN_LOGIN }: StartOptions = {}): TriageState {
  return {
    login,
    view,
    rows: [],
    visible: [],
    selected: 0,
    filter: '',
    filterCursor: 0,
    filtering: false,
    loading: undefined,
    loads: 0,
    loadFailed: false,
    loadedOnce: false,
    details: new Map(),
    reading: new Set(),
    detailGeneration: 0,
    failedRead: undefined,
    drafts: { reply: new Map(), resolution: new Map() },
    draftsInDoubt: { reply: new Set(), resolution: new Set() },
    running: undefined,
    queued: [],
    left: undefined,
    failedInTurn: undefined,
    status: undefined,
    overlay: undefined,
    opening: undefined,
    terminal,
    ended: false,
    interval: intervalMs === undefined ? undefined : { ms: intervalMs, token: undefined, last: undefined, failed: undefined },
    marked: new Set(),
  };
}

export const currentRow = (state: TriageState): TriageRow | undefined => state.visible[state.selected];

/**
 * The state with other rows or another filter: the rows it lets through, and the highlight on
 * the same ticket when it is still listed (else at `fallback`, or as near it as the list allows).
 */
export function withRows(state: TriageState, rows: readonly TriageRow[], filter: string, fallback = state.selected): TriageState {
  const current = currentRow(state);
  const needle = foldForMatch(filter);
  const visible = needle === '' ? rows : rows.filter((row) => row.searchText.includes(needle));
  const index = current === undefined ? -1 : visible.findIndex((row) => row.id === current.id);
  const selected = index >= 0 ? index : Math.min(fallback, Math.max(0, visible.length - 1));
  const filterCursor = filter === state.filter ? state.filterCursor : filter.length;
  return { ...state, rows, filter, filterCursor, visible, selected };
}

/** `drafts` with `text` kept for ticket `id`, or with none when it is blank. */
export function withDraft(drafts: TriageState['drafts'], kind: DraftKind, id: number, text: string): TriageState['drafts'] {
  const kept = new Map(drafts[kind]);
  if (text.trim() === '') kept.delete(id);
  else kept.set(id, text);
  return { ...drafts, [kind]: kept };
}
