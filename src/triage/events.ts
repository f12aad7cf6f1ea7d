// What reaches update.ts (events: keys, pastes, resizes, and the results of effects) and what it
// asks for in return (effects: reads, actions, the editor and the pager), all as plain data.
// effects.ts performs the effects and turns each result into the event that reports it.
import type { KeyPress } from '../util/terminal-input.js';
import type { Choice, TemplatePurpose } from './picker.js';
import type { Ending, TicketAction } from './state.js';

/**
 * What an action reports: what it did, or (`notDone`) what it could not do though nothing failed,
 * said without a tick (no browser to open the page: its URL).
 */
export type ActionOutcome = string | { notDone: string };

export type { TicketAction };

/** A ticket read again after an action, or why it could not be. */
export type Refreshed = { ticket: unknown } | { error: unknown };

export type Effect =
  | { kind: 'loadView'; view: string; token: number }
  /** Reads the ticket (unless it is given) and renders its `tkt show` text at `width`. */
  | { kind: 'readDetail'; id: number; width: number; ticket: unknown; generation: number }
  /** Runs the action, then reads the ticket again for its row. */
  | { kind: 'act'; id: number; action: TicketAction }
  | { kind: 'showInPager'; id: number; width: number; ticket: unknown }
  | { kind: 'readTechnicians'; id: number }
  /** Reads ticket `id` before s asks for the notes: tkt resolve's rule decides first (README, Triage). */
  | { kind: 'checkResolve'; id: number }
  /** Reads the names of the reply templates, to offer them for r or s on ticket `id`. */
  | { kind: 'readTemplates'; id: number; purpose: TemplatePurpose }
  /** Suspends the run to the shell (Ctrl-Z), until it is continued. */
  | { kind: 'suspend' }
  /** Waits `ms` (the --interval timer), then reports a tick. */
  | { kind: 'wait'; ms: number }
  | { kind: 'end'; ending: Ending }
  /** Ends the run with the error, as any command's would. */
  | { kind: 'fail'; error: unknown };

export type TriageEvent =
  | { kind: 'key'; input: string; key: KeyPress }
  | { kind: 'paste'; text: string }
  | { kind: 'resized'; columns: number; rows: number }
  /** A signal (SIGTERM, or SIGINT sent by kill): the screen closes as on Ctrl-C. */
  | { kind: 'signalled' }
  /** The --interval timer is up. */
  | { kind: 'tick' }
  | { kind: 'viewLoaded'; token: number; items: readonly unknown[] }
  | { kind: 'viewFailed'; token: number; error: unknown }
  | { kind: 'detailRead'; id: number; width: number; ticket: unknown; text: string; generation: number }
  | { kind: 'detailFailed'; id: number; width: number; error: unknown; generation: number }
  /** The action is done (`done` says what it did); the ticket as read after it, or why it could not be. */
  | { kind: 'acted'; id: number; done: ActionOutcome; refreshed: Refreshed }
  /**
   * The action failed; what the user wrote for it (a reply, resolution notes), when there is such
   * a text, to be kept. `inDoubt`: its request was sent and the answer lost (a time-out, a cut
   * connection, given up on a second Ctrl-C), so it may have been carried out; the ticket as read after.
   */
  | { kind: 'actionFailed'; id: number; error: unknown; unsent?: string | undefined; inDoubt?: Refreshed | undefined }
  /** The pager has shown the ticket, and exited. */
  | { kind: 'shown'; id: number }
  /** The pager could not show the ticket, and why. */
  | { kind: 'notShown'; id: number; reason: string }
  /** The ticket could not be read or rendered for the pager (a refused login gets its hint in update.ts). */
  | { kind: 'showFailed'; id: number; error: unknown }
  /** The editor or the pager is about to get the terminal: the screen has let go of it. */
  | { kind: 'terminalLent' }
  /** Ctrl-Z could not suspend the run, and why. */
  | { kind: 'notSuspended'; reason: string }
  | { kind: 'techniciansRead'; id: number; choices: readonly Choice[] }
  | { kind: 'techniciansFailed'; error: unknown }
  /** The ticket as read before s asks for the notes; `unchanged`: resolve would change nothing ("already resolved…"). */
  | { kind: 'resolveChecked'; id: number; ticket: unknown; unchanged: string | undefined }
  /** The ticket is closed (refused, as tkt resolve refuses it), or could not be read: no notes are asked for. */
  | { kind: 'resolveRefused'; id: number; error: unknown }
  | { kind: 'templatesRead'; id: number; purpose: TemplatePurpose; names: readonly string[] }
  | { kind: 'templatesFailed'; error: unknown };
