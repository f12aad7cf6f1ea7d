// The state of a triage screen and everything that changes it: the view's tickets, the
// highlight, the filter, the detail cache, the overlays (help, pickers, prompts) and the
// actions. The screen (screen.ts) draws a snapshot and passes keys to `press`; nothing here
// knows about the terminal UI library, so the terminal is reached only through `Terminal`.
import { plans } from '../api/plans.js';
import type { ApiClient } from '../api/types.js';
import type { Context } from '../context.js';
import { ApiError, exitCodeOf, failureReason, TktError } from '../errors.js';
import type { Lookups } from '../lookups/types.js';
import { readListItem, readTicket, type TicketListItem } from '../model/ticket.js';
import { sanitizeInline } from '../output/sanitize.js';
import { kebabCase, LIST_TYPES } from '../tickets/list-query.js';
import { viewTickets } from '../tickets/pages.js';
import { keyPressOf, type KeyPress } from '../util/terminal-input.js';
import type { TicketActions } from './actions.js';

export type { KeyPress };

export interface TriageRow {
  id: number;
  summary: TicketListItem;
  /** What the filter searches, lower-cased, made once per row: a view may hold 20,000 tickets. */
  searchText: string;
}

export interface Choice {
  label: string;
  value: string;
}

export type Overlay =
  | { kind: 'help' }
  | { kind: 'prompt'; label: string; text: string; submit(text: string): void }
  | { kind: 'confirm'; question: string; yes(): void }
  | { kind: 'picker'; title: string; query: string; choices: Choice[]; selected: number; choose(choice: Choice): void };

export type Tone = 'info' | 'ok' | 'error';

export type Ending = 'quit' | 'interrupted';

export interface TriageState {
  /** The list type shown. */
  view: string;
  rows: TriageRow[];
  /** The rows the filter lets through, in list order. */
  visible: TriageRow[];
  loading: boolean;
  /** The last load failed: the rows are an earlier answer's, or none after a switch of view. */
  loadFailed: boolean;
  filter: string;
  /** Typing the filter: keys go to it until Enter or Esc. */
  filtering: boolean;
  /** Index into `visible`. */
  selected: number;
  /** What the last action did, or what is going on. */
  status: { text: string; tone: Tone } | undefined;
  /** An action in flight: other actions wait for it. */
  busy: boolean;
  overlay: Overlay | undefined;
  quit: boolean;
}

/** What the session needs of the terminal: leaving the screen for an editor or a pager. */
export interface Terminal {
  suspend<T>(work: () => Promise<T>): Promise<T>;
}

export interface TriageDeps {
  ctx: Context;
  client: ApiClient;
  lookups: Lookups;
  actions: TicketActions;
  terminal: Terminal;
  /** Opens `text` in the pager (leaving the screen is the caller's). */
  /** Shows `text` in the pager; why not, when the pager could not be run. */
  page(text: string): Promise<string | undefined>;
  /** The full `tkt show` text of a ticket at `width` columns. */
  renderDetail(ticket: unknown, width: number, color: boolean): Promise<string>;
}

/** The keys, as the help overlay, the footer and the README list them. */
export const KEY_MAP: readonly (readonly [string, string])[] = [
  ['↑ ↓  j k', 'move'],
  ['PgUp PgDn Home End', 'move by a page, to the ends'],
  ['/', 'filter the list (Enter keeps it, Esc clears it)'],
  ['Enter', 'the full ticket in the pager (tkt show)'],
  ['p', 'pick up (assign to yourself)'],
  ['r', 'reply to the requester (message in $EDITOR)'],
  ['s', 'resolve (asks for the resolution notes)'],
  ['c', 'close (asks to confirm)'],
  ['a', 'assign (type to filter the technicians)'],
  ['o', 'reopen (status Open)'],
  ['m', 'mark read'],
  ['v', 'switch view'],
  ['R', 'refresh the list'],
  ['?', 'this help'],
  ['q', 'quit'],
  ['Ctrl-C', 'quit, as interrupted (exit 130)'],
];

/**
 * The footer's keys, most used first: the screen shows as many as fit, then the way out and
 * the way to every key, which always show (FOOTER_ENDING).
 */
export const FOOTER_KEYS: readonly (readonly [string, string])[] = [
  ['⏎', 'show'],
  ['/', 'filter'],
  ['p', 'pick up'],
  ['r', 'reply'],
  ['s', 'resolve'],
  ['c', 'close'],
  ['a', 'assign'],
  ['v', 'view'],
  ['o', 'reopen'],
  ['m', 'read'],
  ['R', 'refresh'],
];
export const FOOTER_ENDING = 'q quit  ? keys';

const SEARCHED_FIELDS = ['title', 'status', 'priority', 'requester', 'assignee'] as const;

function triageRow(id: number, summary: TicketListItem): TriageRow {
  const searchText = [String(id), ...SEARCHED_FIELDS.map((name) => summary[name] ?? '')].join('\u0000').toLowerCase();
  return { id, summary, searchText };
}

/** `needle` occurs in `text` where a word starts (after a character that is no letter or digit). */
function atWordStart(text: string, needle: string): boolean {
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + 1)) {
    if (index === 0 || !/[\p{L}\p{N}]/u.test(text[index - 1]!)) return true;
  }
  return false;
}

/**
 * The choices whose label holds `query` (case aside), the best first: the label itself, then
 * labels that start with it, then those with a word that does, then the rest; each in list
 * order. Typed "unassigned", the view unassigned-tickets comes before my-open-or-unassigned.
 */
export function pickerMatches(choices: readonly Choice[], query: string): Choice[] {
  const needle = query.toLowerCase();
  const rank = (label: string): number | undefined => {
    const text = label.toLowerCase();
    if (text === needle) return 0;
    if (text.startsWith(needle)) return 1;
    if (atWordStart(text, needle)) return 2;
    return text.includes(needle) ? 3 : undefined;
  };
  return choices
    .map((choice) => ({ choice, rank: rank(choice.label) }))
    .filter((ranked): ranked is { choice: Choice; rank: number } => ranked.rank !== undefined)
    .sort((a, b) => a.rank - b.rank)
    .map((ranked) => ranked.choice);
}

/** Text typed into the filter or a prompt: control characters are never part of it. */
const typed = (input: string) => input.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');

/** Pasted text for a one-line prompt: its line breaks and tabs as spaces, none at the ends. */
const oneLine = (text: string) => text.replace(/^[\r\n]+|[\r\n]+$/g, '').replace(/\r\n|[\r\n\t]/g, ' ');

/** A row from a ticket's detail, with people by their name alone, as the list names them. */
function rowSummary(ticket: unknown): TicketListItem {
  const summary = readListItem(ticket);
  return { ...summary, requester: summary.field('requester').ownName ?? summary.requester, assignee: summary.field('assignee').ownName ?? summary.assignee };
}

/**
 * An error in one line for the status line, the reason first: the service's own message, then
 * what the answer was ("Ticket 7 was not found. (not found, HTTP 404)"); the request's URL, which
 * would push the reason past the width, is left out.
 */
function failureText(error: unknown): string {
  if (error instanceof ApiError) {
    const answer = `${failureReason(exitCodeOf(error), undefined)}, HTTP ${error.status}`;
    const messages = error.serverMessages.filter((line) => line.trim() !== '');
    return sanitizeInline(messages.length > 0 ? `${messages.join('; ')} (${answer})` : answer);
  }
  if (error instanceof TktError) {
    const details = error.details.filter((line) => line.trim() !== '');
    return sanitizeInline(details.length > 0 ? `${error.message}: ${details.join('; ')}` : error.message);
  }
  return sanitizeInline(error instanceof Error ? error.message : String(error));
}

interface DetailEntry {
  ticket?: unknown;
  /** Rendered text by `${width}:${color}`. */
  texts: Map<string, string>;
}

export class TriageSession {
  private state: TriageState;
  private readonly listeners = new Set<() => void>();
  private readonly details = new Map<number, DetailEntry>();
  /**
   * The highlighted ticket's failed read, shown until the highlight leaves it: failures are not
   * cached, so the next highlight reads it again, but every frame drawn meanwhile does not.
   */
  private failedRead: { id: number; error: string } | undefined;
  private readonly pending = new Set<string>();
  /** Replies written but not sent (the service refused them), by ticket: r opens the editor with them. */
  private readonly replyDrafts = new Map<number, string>();
  /** The load whose answer the screen waits for. */
  private latestLoad: AbortController | undefined;
  private quitResolve: ((ending: Ending) => void) | undefined;
  private quitReject: ((error: unknown) => void) | undefined;
  /** A load has succeeded: from then on a failed load is said on the screen, not the end of it. */
  private loadedOnce = false;
  /**
   * Resolves when the user quits: with q, or interrupted (Ctrl-C, exit 130 as any command).
   * Rejects with the error when the first load fails: there is nothing to show.
   */
  readonly finished: Promise<Ending>;

  constructor(
    private readonly deps: TriageDeps,
    view: string,
  ) {
    this.state = { view, rows: [], visible: [], loading: true, loadFailed: false, filter: '', filtering: false, selected: 0, status: undefined, busy: false, overlay: undefined, quit: false };
    this.finished = new Promise((resolve, reject) => {
      this.quitResolve = resolve;
      this.quitReject = reject;
    });
  }

  // --- the store, for the screen ---

  snapshot = (): TriageState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private update(changes: Partial<TriageState>): void {
    const next = { ...this.state, ...changes };
    if ('rows' in changes || 'filter' in changes) {
      const current = this.current();
      const needle = next.filter.toLowerCase();
      next.visible = needle === '' ? next.rows : next.rows.filter((row) => row.searchText.includes(needle));
      // The highlight stays on the same ticket when it is still listed.
      const index = current === undefined ? -1 : next.visible.findIndex((row) => row.id === current.id);
      next.selected = index >= 0 ? index : Math.min(next.selected, Math.max(0, next.visible.length - 1));
    }
    if (this.failedRead !== undefined && next.visible[next.selected]?.id !== this.failedRead.id) this.failedRead = undefined;
    this.state = next;
    for (const listener of this.listeners) listener();
  }

  current(): TriageRow | undefined {
    return this.state.visible[this.state.selected];
  }

  private say(text: string, tone: Tone): void {
    this.update({ status: { text, tone } });
  }

  quit(ending: Ending = 'quit'): void {
    if (this.state.quit) return;
    this.update({ quit: true });
    this.quitResolve?.(ending);
  }

  /** Ends the session with `error`, which the run then fails with. */
  private fail(error: unknown): void {
    if (this.state.quit) return;
    this.update({ quit: true });
    this.quitReject?.(error);
  }

  // --- the list ---

  /** Reads `view` and shows it; a later load (another view, R again) stops this one and wins. */
  async load(view = this.state.view): Promise<void> {
    this.latestLoad?.abort();
    const load = new AbortController();
    this.latestLoad = load;
    const reloaded = view === this.state.view && !this.state.loading;
    // Another view starts unfiltered: a filter carried over would hide its tickets unasked.
    this.update({ view, loading: true, ...(view === this.state.view ? {} : { rows: [], selected: 0, filter: '', filtering: false }) });
    try {
      const items = await viewTickets(this.deps.client, view, AbortSignal.any([this.deps.ctx.signal, load.signal]));
      // Overtaken while it ran: its tickets belong to a view no longer shown.
      if (load.signal.aborted) return;
      const rows = items.flatMap((item): TriageRow[] => {
        const summary = readListItem(item);
        const id = Number(summary.id);
        return Number.isSafeInteger(id) ? [triageRow(id, summary)] : [];
      });
      // Read again means every detail too, one that failed included.
      this.details.clear();
      this.failedRead = undefined;
      this.loadedOnce = true;
      // The title line counts the tickets; a reload says it happened.
      this.update({ rows, loading: false, loadFailed: false, status: reloaded ? { text: `✓ ${kebabCase(view)} read again`, tone: 'ok' } : undefined });
    } catch (error) {
      if (load.signal.aborted) return;
      // The first: the run fails as any command's would (a refused token: exit 4 and its hint).
      if (!this.loadedOnce) return this.fail(error);
      this.update({ loading: false, loadFailed: true, status: { text: `could not load ${kebabCase(view)}: ${failureText(error)}`, tone: 'error' } });
    }
  }

  /** The highlighted ticket's detail text at `width`, fetched and rendered on first need. */
  detailText(id: number, width: number, color: boolean): { text?: string; error?: string } {
    if (this.failedRead?.id === id) return { error: this.failedRead.error };
    const key = `${width}:${color}`;
    const text = this.details.get(id)?.texts.get(key);
    if (text !== undefined) return { text };
    const job = `${id}@${key}`;
    if (!this.pending.has(job)) {
      this.pending.add(job);
      void this.fetchDetail(id, width, color, key).finally(() => this.pending.delete(job));
    }
    return {};
  }

  private async fetchDetail(id: number, width: number, color: boolean, key: string): Promise<void> {
    try {
      const ticket = await this.ticket(id);
      const text = await this.deps.renderDetail(ticket, width, color);
      this.details.get(id)?.texts.set(key, text);
    } catch (error) {
      if (this.current()?.id === id) this.failedRead = { id, error: failureText(error) };
    }
    this.update({});
  }

  /** The ticket's detail body, from the cache or the service. */
  private async ticket(id: number): Promise<unknown> {
    const cached = this.details.get(id);
    if (cached?.ticket !== undefined) return cached.ticket;
    const ticket = (await this.deps.client.send(plans.getTicket(id))).body;
    this.details.set(id, { ticket, texts: new Map() });
    return ticket;
  }

  /** After an action: the ticket read again, its row and detail from what the service now says. */
  private async refreshRow(id: number): Promise<void> {
    this.details.delete(id);
    const summary = rowSummary(await this.ticket(id));
    this.update({ rows: this.state.rows.map((row) => (row.id === id ? triageRow(id, { ...summary, id }) : row)) });
  }

  // --- actions ---

  /**
   * Runs one action on the highlighted ticket; says what happened and refreshes its row.
   * `keptNote` says, after a failure, what was kept for the next try.
   */
  private act(verb: string, work: (id: number) => Promise<string>, keptNote?: (id: number) => string | undefined): void {
    const row = this.current();
    if (row === undefined) return this.say('no ticket highlighted', 'error');
    if (this.state.busy) return this.say('wait: an action is still running', 'error');
    this.update({ busy: true, status: { text: `${verb} #${row.id}…`, tone: 'info' } });
    void (async () => {
      try {
        const done = await work(row.id);
        this.say(`✓ ${sanitizeInline(done)}`, 'ok');
        await this.refreshRow(row.id).catch((error: unknown) => this.say(`✓ ${sanitizeInline(done)}; the row could not be refreshed: ${failureText(error)}`, 'ok'));
      } catch (error) {
        // Before the reason, which the width may cut.
        const kept = keptNote?.(row.id);
        this.say(`✗ ${verb} #${row.id}${kept === undefined ? '' : ` (${kept})`}: ${failureText(error)}`, 'error');
      } finally {
        this.update({ busy: false });
      }
    })();
  }

  private reply(): void {
    this.act(
      'replying to',
      async (id) => {
        const ticket = await this.ticket(id);
        const message = await this.deps.terminal.suspend(() =>
          this.deps.ctx.prompter.editor({ message: `Reply to #${id}: ${sanitizeInline(readTicket(ticket).title ?? '')}`, default: this.replyDrafts.get(id) }),
        );
        try {
          const done = await this.deps.actions.reply(id, ticket, message);
          this.replyDrafts.delete(id);
          return done;
        } catch (error) {
          this.replyDrafts.set(id, message);
          throw error;
        }
      },
      (id) => (this.replyDrafts.has(id) ? 'your reply is kept: r opens it again' : undefined),
    );
  }

  private openInPager(): void {
    const row = this.current();
    if (row === undefined) return;
    void (async () => {
      try {
        const ticket = await this.ticket(row.id);
        const text = await this.deps.renderDetail(ticket, this.deps.ctx.io.size().columns, this.deps.ctx.io.stdoutColor);
        const notShown = await this.deps.terminal.suspend(() => this.deps.page(text));
        // Printed instead, the ticket would land on the shell's screen, under triage's.
        if (notShown !== undefined) this.say(`✗ show #${row.id}: ${notShown}`, 'error');
      } catch (error) {
        this.say(`✗ show #${row.id}: ${failureText(error)}`, 'error');
      }
    })();
  }

  private async openAssignPicker(): Promise<void> {
    const row = this.current();
    if (row === undefined) return;
    try {
      const technicians = await this.deps.lookups.entries('assignee');
      const choices = technicians.map((entry) => ({ label: entry.username === undefined ? entry.name : `${entry.name} (${entry.username})`, value: String(entry.id) }));
      this.update({
        overlay: {
          kind: 'picker',
          title: `Assign #${row.id} to`,
          query: '',
          choices,
          selected: 0,
          choose: (choice) => this.act('assigning', (id) => this.deps.actions.assign(id, choice.value)),
        },
      });
    } catch (error) {
      this.say(`✗ assign: ${failureText(error)}`, 'error');
    }
  }

  private openViewPicker(): void {
    const choices = LIST_TYPES.map((type) => ({ label: kebabCase(type), value: type }));
    const selected = Math.max(0, choices.findIndex((choice) => choice.value === this.state.view));
    this.update({ overlay: { kind: 'picker', title: 'Switch to view', query: '', choices, selected, choose: (choice) => void this.load(choice.value) } });
  }

  // --- keys ---

  /** One key press; `pageSize` is how many rows the list shows. */
  press(input: string, key: KeyPress, pageSize: number): void {
    if (key.ctrl && input === 'c') return this.quit('interrupted');
    const overlay = this.state.overlay;
    // Keys typed faster than they are read come as one chunk ("jj", "printer\r"): one at a time.
    if ([...input].length > 1 && !key.ctrl) {
      for (const char of input) {
        const { input: typed, key: charKey } = keyPressOf(char);
        this.press(typed, charKey, pageSize);
      }
      return;
    }
    if (overlay !== undefined) return this.pressInOverlay(overlay, input, key);
    if (this.state.filtering) return this.pressInFilter(input, key);
    const last = this.state.visible.length - 1;
    const move = (to: number) => this.update({ selected: Math.max(0, Math.min(last, to)) });
    const { selected } = this.state;
    if (key.upArrow || input === 'k') return move(selected - 1);
    if (key.downArrow || input === 'j') return move(selected + 1);
    if (key.pageUp) return move(selected - Math.max(1, pageSize));
    if (key.pageDown) return move(selected + Math.max(1, pageSize));
    if (key.home || input === 'g') return move(0);
    if (key.end || input === 'G') return move(last);
    if (key.return) return this.openInPager();
    if (key.escape) return this.state.filter === '' ? undefined : this.update({ filter: '' });
    const row = this.current();
    switch (input) {
      case 'q':
        return this.quit();
      case '?':
        return this.update({ overlay: { kind: 'help' } });
      case '/':
        return this.update({ filtering: true });
      case 'R':
        return void this.load();
      case 'v':
        return this.openViewPicker();
      case 'p':
        return this.act('picking up', (id) => this.deps.actions.pickUp(id));
      case 'm':
        return this.act('marking read', (id) => this.deps.actions.markRead(id));
      case 'o':
        return this.act('reopening', (id) => this.deps.actions.reopen(id));
      case 'r':
        return this.reply();
      case 'a':
        return void this.openAssignPicker();
      case 's':
        if (row === undefined) return;
        return this.update({ overlay: { kind: 'prompt', label: `Resolution notes for #${row.id}`, text: '', submit: (text) => this.act('resolving', (id) => this.deps.actions.resolve(id, text)) } });
      case 'c':
        if (row === undefined) return;
        return this.update({ overlay: { kind: 'confirm', question: `Close #${row.id}? (y/n)`, yes: () => this.act('closing', (id) => this.deps.actions.close(id)) } });
      default:
        return undefined;
    }
  }

  /** Pasted text: into the filter, the prompt or the picker being typed, as text, never as keys. */
  paste(text: string): void {
    if (!this.insert(typed(oneLine(text)))) this.say('pasted text goes into the filter (/), a prompt or a picker: nothing was done', 'info');
  }

  /** Adds `text` to what is being typed: the prompt's text, the picker's query or the filter. False when nothing is. */
  private insert(text: string): boolean {
    const { overlay } = this.state;
    if (overlay?.kind === 'prompt') this.update({ overlay: { ...overlay, text: overlay.text + text } });
    else if (overlay?.kind === 'picker') this.update({ overlay: { ...overlay, query: overlay.query + text, selected: 0 } });
    else if (overlay === undefined && this.state.filtering) this.update({ filter: this.state.filter + text, selected: 0 });
    else return false;
    return true;
  }

  private pressInFilter(input: string, key: KeyPress): void {
    if (key.return) return this.update({ filtering: false });
    if (key.escape) return this.update({ filtering: false, filter: '' });
    if (key.backspace || key.delete) return this.update({ filter: this.state.filter.slice(0, -1) });
    if (key.upArrow || key.downArrow) return this.update({ filtering: false });
    if (typed(input) !== '' && !key.ctrl) this.insert(typed(input));
  }

  private pressInOverlay(overlay: Overlay, input: string, key: KeyPress): void {
    const close = () => this.update({ overlay: undefined });
    if (overlay.kind === 'help') return close();
    if (overlay.kind === 'confirm') {
      close();
      if (input === 'y' || input === 'Y') overlay.yes();
      else this.say('nothing was changed', 'info');
      return;
    }
    if (key.escape) {
      close();
      return this.say('nothing was changed', 'info');
    }
    if (overlay.kind === 'prompt') {
      if (key.return) {
        close();
        return overlay.submit(overlay.text);
      }
      if (key.backspace || key.delete) return this.update({ overlay: { ...overlay, text: overlay.text.slice(0, -1) } });
    } else {
      const shown = pickerMatches(overlay.choices, overlay.query);
      if (key.return) {
        const choice = shown[overlay.selected];
        if (choice === undefined) return;
        close();
        return overlay.choose(choice);
      }
      if (key.upArrow) return this.update({ overlay: { ...overlay, selected: Math.max(0, overlay.selected - 1) } });
      if (key.downArrow) return this.update({ overlay: { ...overlay, selected: Math.min(shown.length - 1, overlay.selected + 1) } });
      if (key.backspace || key.delete) return this.update({ overlay: { ...overlay, query: overlay.query.slice(0, -1), selected: 0 } });
    }
    if (typed(input) !== '' && !key.ctrl) this.insert(typed(input));
  }
}
