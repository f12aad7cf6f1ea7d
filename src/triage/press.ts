// Keys and pastes, as update.ts hands them on: over the list a key does what the key table
// (keys.ts) says; while the filter, a prompt or a picker is being typed, keys edit it; pasted
// text is only ever text.
import { onProfile } from '../config/session.js';
import { kebabCase, LIST_TYPES } from '../listing/query.js';
import { keyPressOf, type KeyPress } from '../util/terminal-input.js';
import { actionOf, keyName, movedTo, type Action } from './keys.js';
import { scrollHelp } from './help.js';
import { layoutFor } from './layout.js';
import { pickerMatches, type Choice } from './picker.js';
import { currentRow, withDraft, withRows, type Overlay, type Queued, type TriageState, type TypedAhead } from './state.js';
import { replyTo, templateChosen } from './templates.js';
import { actOn, andThen, queue, end, KEPT_DRAFT, say, startLoad, unchanged, type Step } from './transitions.js';
import { holdingKeys, queuedBehindOpener, TICKET_KEYS, typedAhead } from './typed-ahead.js';
import { editLine, insertText, type Line } from './line-edit.js';

/**
 * Text typed into the filter or a prompt: control characters are never part of it, nor half of a
 * character (a lone surrogate, which would be sent as U+FFFD).
 */
const typed = (input: string) => input.replace(/[\u0000-\u001f\u007f-\u009f]|\p{Cs}/gu, '');

/** Pasted text for a one-line prompt: its line breaks and tabs as spaces, none at the ends. */
const oneLine = (text: string) => text.replace(/^[\r\n]+|[\r\n]+$/g, '').replace(/\r\n|[\r\n\t]/g, ' ');

export function pressKey(state: TriageState, input: string, key: KeyPress): Step {
  // Anywhere: as Ctrl-C and Ctrl-Z would be, the terminal's, were it not raw.
  if (keyName(input, key) === 'Ctrl-C') return end(state, 'interrupted');
  if (keyName(input, key) === 'Ctrl-Z') return suspend(state);
  // Keys typed faster than they are read come as one chunk ("jj", "printer\r"): one at a time.
  if ([...input].length > 1 && key.ctrl !== true) return pressEach(state, input);
  // What a key opened is on its way: the keys typed meanwhile are its.
  if (state.opening !== undefined) return unchanged(typedAhead(state, state.opening, { kind: 'key', input, key }));
  if (queuedBehindOpener(state)) return unchanged(queue(state, { typed: { kind: 'key', input, key }, on: undefined }));
  return holdingKeys(pressOne(state, input, key));
}

function pressOne(state: TriageState, input: string, key: KeyPress): Step {
  if (state.overlay !== undefined) return pressInOverlay(state, state.overlay, input, key);
  if (state.filtering) return pressInFilter(state, input, key);
  const action = actionOf(input, key);
  if (action === undefined) return unchanged(state);
  const row = currentRow(state);
  // Typed while an action runs: for the ticket highlighted now, once that action is over.
  if (state.running !== undefined && TICKET_KEYS.has(action) && row !== undefined)
    return unchanged(queue(state, { typed: { kind: 'key', input, key }, on: row.id }));
  return perform(state, action);
}

/**
 * The action running is over (its outcome in the status line): what waited for it, in order, until
 * one of them starts another action, which the rest then waits for. The status line keeps the
 * outcome before the next action's words, and a failure until the last one is over.
 */
export function takeTurns(step: Step): Step {
  const { queued, status: outcome } = step.state;
  const failed = outcome?.tone === 'error' ? outcome.text : undefined;
  if (queued.length === 0) {
    const earlier = step.state.failedInTurn;
    if (earlier === undefined || outcome === undefined) return step;
    return { ...step, state: { ...step.state, failedInTurn: undefined, status: { text: `${outcome.text} (before it: ${earlier})`, tone: 'error' } } };
  }
  const ready: Step = { ...step, state: { ...step.state, queued: [], failedInTurn: step.state.failedInTurn ?? failed } };
  const next = queued.reduce((last, item) => {
    if (last.state.ended) return last;
    if (last.state.running !== undefined) return { ...last, state: { ...last.state, queued: [...last.state.queued, item] } };
    return andThen(last, (state) => takeTurn(state, item));
  }, ready);
  const { running, status } = next.state;
  if (running === undefined || outcome === undefined || status === undefined) return takeTurns({ ...next, state: { ...next.state, queued: [] } });
  const tone = failed === undefined ? 'info' : 'error';
  return { ...next, state: { ...next.state, status: { text: `${outcome.text} · ${status.text}`, tone } } };
}

/** One queued key, pastes or action, now that its turn has come. */
function takeTurn(state: TriageState, item: Queued): Step {
  if ('action' in item) return actOn(state, item.on, item.action);
  const { typed: input, on } = item;
  if (input.kind === 'paste') return paste(state, input.text);
  const action = actionOf(input.input, input.key);
  // Acts on the ticket highlighted when it was typed, wherever the highlight is now.
  if (on !== undefined && action !== undefined && TICKET_KEYS.has(action)) return holdingKeys(actOnTicket(state, action as TicketKey, on));
  return pressKey(state, input.input, input.key);
}

function pressEach(state: TriageState, chunk: string): Step {
  return [...chunk].reduce((step, char) => {
    if (step.state.ended) return step;
    const { input, key } = keyPressOf(char);
    return andThen(step, (last) => pressKey(last, input, key));
  }, unchanged(state));
}

/** What was typed while what a key opened was on its way, now that it is open: in order, as if it had been there. */
export function pressTypedAhead(step: Step, typed: readonly TypedAhead[]): Step {
  return typed.reduce(
    (last, input) =>
      last.state.ended ? last : andThen(last, (state) => (input.kind === 'key' ? pressKey(state, input.input, input.key) : paste(state, input.text))),
    step,
  );
}

/** Pasted text: into the filter, the prompt or the picker being typed, as text, never as keys. */
export function paste(state: TriageState, text: string): Step {
  if (state.opening !== undefined) return unchanged(typedAhead(state, state.opening, { kind: 'paste', text }));
  if (queuedBehindOpener(state)) return unchanged(queue(state, { typed: { kind: 'paste', text }, on: undefined }));
  const inserted = insert(state, typed(oneLine(text)));
  return inserted === undefined ? say(state, 'pasted text goes into the filter (/), a prompt or a picker: nothing was done', 'info') : unchanged(inserted);
}

/** `text` added at the cursor of what is being typed; undefined when nothing is. */
function insert(state: TriageState, text: string): TriageState | undefined {
  const line = lineBeingTyped(state);
  return line === undefined ? undefined : withLineTyped(state, insertText(line, text));
}

/** What is being typed: the prompt's text, the picker's query or the filter, with its cursor. */
function lineBeingTyped(state: TriageState): Line | undefined {
  const { overlay } = state;
  if (overlay?.kind === 'prompt') return { text: overlay.text, cursor: overlay.cursor };
  if (overlay?.kind === 'picker') return { text: overlay.query, cursor: overlay.cursor };
  if (overlay === undefined && state.filtering) return { text: state.filter, cursor: state.filterCursor };
  return undefined;
}

/** `state` with `line` where lineBeingTyped found it; a picker's query changed shows its best match first. */
function withLineTyped(state: TriageState, { text, cursor }: Line): TriageState {
  const { overlay } = state;
  if (overlay?.kind === 'prompt') return { ...state, overlay: { ...overlay, text, cursor } };
  if (overlay?.kind === 'picker') return { ...state, overlay: { ...overlay, query: text, cursor, selected: text === overlay.query ? overlay.selected : 0 } };
  return { ...withRows(state, state.rows, text, 0), filterCursor: cursor };
}

/** A key's action over the list. */
function perform(state: TriageState, action: Action): Step {
  const row = currentRow(state);
  const page = Math.max(1, layoutFor(state.terminal, state.visible.length).listLines);
  const moved = movedTo(action, state.selected, page, state.visible.length - 1);
  if (moved !== undefined) return unchanged({ ...state, selected: moved });
  switch (action) {
    // Taken by movedTo above; listed so that a new action must be placed here.
    case 'up':
    case 'down':
    case 'pageUp':
    case 'pageDown':
    case 'first':
    case 'last':
      return unchanged(state);
    case 'show':
    case 'pickUp':
    case 'markRead':
    case 'browse':
    case 'reopen':
    case 'reply':
    case 'resolve':
    case 'close':
    case 'assign':
      return row === undefined ? say(state, 'no ticket highlighted', 'error') : actOnTicket(state, action, row.id);
    case 'filter':
      return unchanged({ ...state, filtering: true });
    case 'clearFilter':
      return unchanged(state.filter === '' ? state : withRows(state, state.rows, ''));
    case 'switchView': {
      const choices = LIST_TYPES.map((type) => ({ label: kebabCase(type), value: type }));
      const selected = Math.max(
        0,
        choices.findIndex((choice) => choice.value === state.view),
      );
      return unchanged({ ...state, overlay: { kind: 'picker', title: 'Switch to view', query: '', cursor: 0, choices, selected, switchesView: true } });
    }
    case 'refresh':
      return startLoad(state, state.view);
    case 'help':
      return unchanged({ ...state, overlay: { kind: 'help', top: 0 } });
    case 'quit':
      return end(state, 'quit');
    case 'interrupt':
      return end(state, 'interrupted');
    // Taken by pressKey, as interrupt is.
    case 'suspend':
      return suspend(state);
  }
}

/** The keys that act on a ticket (TICKET_KEYS). */
type TicketKey = 'show' | 'pickUp' | 'markRead' | 'browse' | 'reopen' | 'reply' | 'resolve' | 'close' | 'assign';

/** A key's action on ticket `id`: the highlighted one, or the one highlighted when the key was typed. */
function actOnTicket(state: TriageState, action: TicketKey, id: number): Step {
  switch (action) {
    case 'show':
      return { state, effects: [{ kind: 'showInPager', id, width: state.terminal.columns, ticket: state.details.get(id)?.ticket }] };
    case 'pickUp':
    case 'markRead':
    case 'browse':
    case 'reopen':
      return actOn(state, id, { kind: action });
    case 'reply':
      // A reply kept from a failed send opens as it was: a template would replace it.
      if (state.drafts.reply.has(id)) return replyTo(state, id);
      return { state, effects: [{ kind: 'readTemplates', id, purpose: 'reply' }] };
    case 'resolve':
      // The ticket first, as tkt resolve reads it at a terminal: nobody writes notes for a ticket
      // closed or resolved (update.ts resolveChecked).
      return { state, effects: [{ kind: 'checkResolve', id }] };
    case 'close': {
      // The service the ticket is closed on, as the title line names it; the default goes without saying.
      const on = onProfile(state.login.shownProfile);
      return unchanged({ ...state, overlay: { kind: 'confirm', question: `Close #${id}${on}? (y/n)`, closes: id } });
    }
    case 'assign':
      return { state, effects: [{ kind: 'readTechnicians', id }] };
  }
}

const suspend = (state: TriageState): Step => ({ state, effects: [{ kind: 'suspend' }] });

function pressInFilter(state: TriageState, input: string, key: KeyPress): Step {
  if (key.return === true || key.upArrow === true || key.downArrow === true) return unchanged({ ...state, filtering: false });
  if (key.escape === true) return unchanged(withRows({ ...state, filtering: false }, state.rows, ''));
  return typeInto(state, input, key);
}

/** A key typed into the filter, a prompt or a picker: an editing key (line-edit.ts), or its character, if it is text. */
function typeInto(state: TriageState, input: string, key: KeyPress): Step {
  const line = lineBeingTyped(state);
  if (line === undefined) return unchanged(state);
  const edited = editLine(line, input, key);
  if (edited !== undefined) return unchanged(withLineTyped(state, edited));
  const text = typed(input);
  return unchanged(text === '' || key.ctrl === true ? state : withLineTyped(state, insertText(line, text)));
}

function pressInOverlay(state: TriageState, overlay: Overlay, input: string, key: KeyPress): Step {
  const closed = { ...state, overlay: undefined };
  if (overlay.kind === 'help') {
    const top = scrollHelp(state.terminal, overlay.top, actionOf(input, key));
    return unchanged(top === undefined ? closed : { ...state, overlay: { ...overlay, top } });
  }
  if (overlay.kind === 'confirm') {
    return input === 'y' || input === 'Y' ? actOn(closed, overlay.closes, { kind: 'close' }) : say(closed, 'nothing was changed', 'info');
  }
  if (key.escape === true) {
    // Notes kept from a failed resolve stay kept, as edited here (emptied, they are dropped).
    if (overlay.kind === 'prompt' && state.drafts.resolution.has(overlay.resolves)) {
      const drafts = withDraft(state.drafts, 'resolution', overlay.resolves, overlay.text);
      const kept = drafts.resolution.has(overlay.resolves) ? ` (${KEPT_DRAFT.resolution})` : '';
      return say({ ...closed, drafts }, `nothing was changed${kept}`, 'info');
    }
    return say(closed, 'nothing was changed', 'info');
  }
  if (overlay.kind === 'prompt') {
    if (key.return === true) return actOn(closed, overlay.resolves, { kind: 'resolve', notes: overlay.text });
    return typeInto(state, input, key);
  }
  const shown = pickerMatches(overlay.choices, overlay.query);
  if (key.return === true) {
    const choice = shown[overlay.selected];
    return choice === undefined ? unchanged(state) : choose(closed, overlay, choice);
  }
  if (key.upArrow === true) return unchanged({ ...state, overlay: { ...overlay, selected: Math.max(0, overlay.selected - 1) } });
  if (key.downArrow === true) return unchanged({ ...state, overlay: { ...overlay, selected: Math.min(shown.length - 1, overlay.selected + 1) } });
  return typeInto(state, input, key);
}

function choose(state: TriageState, picker: Extract<Overlay, { kind: 'picker' }>, choice: Choice): Step {
  if ('assigns' in picker) return actOn(state, picker.assigns, { kind: 'assign', user: choice.value });
  if ('fillsTemplate' in picker) return templateChosen(state, picker.fillsTemplate, choice);
  return startLoad(state, choice.value);
}
