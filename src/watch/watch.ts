// The watch loop: poll, tell each event (a line, --exec, --notify), keep the state, wait. A
// transient failure is said once and retried with backoff; anything else ends the watch (401:
// exit 4). A signal gives up a poll still reading (a read changes nothing: the next run reads
// again) and starts no request; a poll telling its events tells them all and writes its state.
// A watched field the service does not say is kept as last said, and one it says of no ticket is
// said once (README, Watching).
import { spawn, type ChildProcess } from 'node:child_process';
import { isSuccess } from '../api/answer.js';
import { timerMs } from '../api/deadline.js';
import type { Context } from '../context/context.js';
import { ApiError, FailedBeforeOutputClosedError, InterruptedError, NetworkError, OutputClosedError, howToGiveUp, stoppedHow } from '../errors.js';
import { entryType } from '../model/entry-type.js';
import { sanitizeInline } from '../output/sanitize.js';
import { breakLineAfterCtrlC } from '../output/io.js';
import { flushed } from '../output/write.js';
import { formatDate } from '../output/time.js';
import { signalGroup } from '../util/process-group.js';
import { addedEvents, diffSnapshots, keepLastKnown, unsaidFields, type RemovedReason, type Snapshot, type WatchedField, type WatchEvent } from './events.js';
import { MAX_CONFIRM_READS, type Poll } from './polls.js';
import { describeWatching, writeState, type HeldState, type Watching } from './state-file.js';

/** How the watch waits: real time, or a clock a test moves (test/watch/). */
export interface WatchTimer {
  /** Resolves after `ms`, or as soon as `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const realTimer: WatchTimer = {
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      // An abort already past fires no event.
      if (signal.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    }),
};

/** The clock of a wait before the watch starts (another run's lock on --state): `timer`'s, ended by a signal. */
export function waitClock(ctx: Context, timer: WatchTimer = realTimer): { now(): number; sleep(ms: number): Promise<void> } {
  return {
    now: () => ctx.now().getTime(),
    async sleep(ms) {
      await timer.sleep(ms, ctx.signal);
      stopIfSignalled(ctx.signal);
    },
  };
}

export interface WatchSettings {
  intervalMs: number;
  once: boolean;
  initial: boolean;
  /** What this watch watches: said at a terminal, recorded in --state. */
  watching: Watching;
  /** --state: the file, held for the watch, and the snapshot it kept (holdState). */
  state: HeldState | undefined;
  exec: string | undefined;
  notify: boolean;
}

// The first retry comes soon; later ones back off up to this, or the interval if longer.
const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 5 * 60_000;

/**
 * A failure that the next poll may not meet: no answer, a time-out, a 5xx, "too many requests",
 * or a success whose body could not be used (cut off on a flaky link, mangled by a proxy): a
 * read, so nothing is in doubt, and the next poll reads it whole.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  return error instanceof ApiError && (isSuccess(error.status) || error.status >= 500 || error.status === 408 || error.status === 429);
}

export async function watch(ctx: Context, poll: Poll, settings: WatchSettings, timer: WatchTimer = realTimer): Promise<void> {
  // Ctrl-C is the usual end of a watch.
  const stopListening = breakLineAfterCtrlC(ctx.io, ctx.signal);
  try {
    await watchUntilStopped(ctx, poll, settings, timer);
  } finally {
    stopListening();
  }
}

async function watchUntilStopped(ctx: Context, poll: Poll, settings: WatchSettings, timer: WatchTimer): Promise<void> {
  let previous = settings.state?.kept;
  let unwatchable = settings.state?.unwatchable ?? [];
  let failures = 0;
  let announced = false;
  for (;;) {
    const at = ctx.now().toISOString();
    let result: Awaited<ReturnType<Poll>>;
    try {
      result = await poll(ctx, previous);
    } catch (error) {
      if (settings.once || !isTransient(error)) throw error;
      // A read that fails as the signal comes is given up with its poll: no failure said, no retry promised.
      stopIfSignalled(ctx.signal);
      failures++;
      if (failures === 1) await ctx.output.warning(`cannot poll: ${(error as Error).message}; retrying until it works\n`);
      stopIfSignalled(ctx.signal);
      await timer.sleep(retryDelay(failures, settings.intervalMs), ctx.signal);
      stopIfSignalled(ctx.signal);
      continue;
    }
    if (failures > 0) await ctx.output.note(`polling again after ${failures} failed ${failures === 1 ? 'poll' : 'polls'}\n`);
    failures = 0;
    if (!announced) await announce(ctx, settings, result.snapshot);
    announced = true;
    const unsaid = unsaidFields(result.snapshot) ?? unwatchable;
    const newlyUnsaid = unsaid.filter((name) => !unwatchable.includes(name));
    if (newlyUnsaid.length > 0) await ctx.output.warning(unwatchableText(newlyUnsaid, settings.watching));
    unwatchable = unsaid;
    const snapshot = keepLastKnown(result.snapshot, previous);
    const events =
      previous === undefined
        ? settings.initial
          ? addedEvents(snapshot, at)
          : []
        : diffSnapshots(previous, snapshot, at, result.conversations, result.departures);
    let execFailures = 0;
    let told = 0;
    // Printed, but their --exec command did not run (or not to its end): the run was stopped.
    const notHooked: WatchEvent[] = [];
    try {
      for (const event of events) {
        // Once a stop is asked, no --exec command starts, but every event of the poll is still
        // printed: stdout is the record, and the state says so (docs/cli.md section 13).
        const hook = settings.exec !== undefined && !ctx.signal.aborted ? settings.exec : undefined;
        const outcome = await tell(ctx, event, settings, hook);
        if (settings.exec !== undefined && (hook === undefined || outcome === 'stopped')) notHooked.push(event);
        if (outcome === 'failed') execFailures++;
        told++;
      }
    } catch (error) {
      // A closed stdout ends the watch before the next event, and before its --exec command.
      if (!(error instanceof OutputClosedError) || !settings.once || execFailures === 0) throw error;
      throw execFailed(settings, execFailures, `${told} ${told === 1 ? 'event' : 'events'} told before stdout was closed (${events.length - told} not told)`);
    }
    // A one-shot run (cron) keeps no state past a command that failed: its next run tells that poll
    // again, and the exit code lets cron say so. A long watch reports it and goes on (README, Watching).
    if (settings.once && execFailures > 0) throw execFailed(settings, execFailures, `${events.length} ${events.length === 1 ? 'event' : 'events'}`);
    if (notHooked.length > 0) await sayNotHooked(ctx, notHooked);
    if (settings.state !== undefined) {
      // Kept only once the events have left the process: a kill cannot lose an event the state says was told.
      await flushed(ctx.io.stdout);
      writeState(settings.state, settings.watching, snapshot, at, unwatchable);
    }
    previous = snapshot;
    if (settings.once) return;
    stopIfSignalled(ctx.signal);
    await timer.sleep(settings.intervalMs, ctx.signal);
    stopIfSignalled(ctx.signal);
  }
}

/**
 * `watch --once` ends with exit 1 when --exec failed for some of `events`, even when stdout was
 * closed since (README, Watching), and leaves --state as it was.
 */
function execFailed(settings: WatchSettings, failures: number, events: string): FailedBeforeOutputClosedError {
  const hint = settings.state === undefined ? undefined : `${settings.state.file} was left as it was: the next run tells this poll's events again`;
  return new FailedBeforeOutputClosedError(`--exec failed for ${failures} of ${events}`, { hint });
}

/**
 * At a terminal, once the first poll is in, one line on stderr says that the watch runs: it
 * may tell nothing for hours. Scripts (a pipe, -q, --json, --once) get no such line; a lone
 * --once gets its own (explainLoneOnce).
 */
async function announce(ctx: Context, settings: WatchSettings, snapshot: Snapshot): Promise<void> {
  if (settings.once) return explainLoneOnce(ctx, settings);
  if (!ctx.io.stdoutIsTTY || !ctx.io.stderrIsTTY || ctx.output.format !== 'human') return;
  const count = 'ids' in settings.watching ? '' : ` (${snapshot.size} ${snapshot.size === 1 ? 'ticket' : 'tickets'})`;
  await ctx.output.note(`watching ${describeWatching(settings.watching)}${count} every ${settings.intervalMs / 1000} s; Ctrl-C to stop\n`);
}

/**
 * `--once` with no --state and no --initial has only a first poll, which tells nothing: a person
 * (stderr at a terminal, not -q) is told why and what to give; a script's output stays as it was.
 */
async function explainLoneOnce(ctx: Context, settings: WatchSettings): Promise<void> {
  if (settings.state !== undefined || settings.initial || !ctx.io.stderrIsTTY) return;
  await ctx.output.note('the first poll only sets the starting point: use --state FILE to see changes across runs, or --initial\n');
}

const FIELD_WORDS: Record<WatchedField, string> = { status: 'status', priority: 'priority', assignee: 'assignee', due: 'due date', title: 'title' };

/** `the service does not say the tickets' due date ...`: said once for the fields whose changes cannot be told. */
function unwatchableText(fields: readonly WatchedField[], watching: Watching): string {
  const words = fields.map((name) => FIELD_WORDS[name]);
  const named = words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}`;
  // Given tickets are read by their details alone.
  const where = 'ids' in watching ? 'in their details' : 'in its list or in their details';
  return `the service does not say the tickets' ${named} ${where}: tkt watch cannot tell ${words.length === 1 ? 'its' : 'their'} changes\n`;
}

/** Between polls, a signal ends the watch (exit 130 or 143). */
function stopIfSignalled(signal: AbortSignal): void {
  if (signal.aborted) throw new InterruptedError();
}

/** Doubling from FIRST_RETRY_MS, capped, with up to 20% jitter so that many watchers do not retry together. */
function retryDelay(failures: number, intervalMs: number): number {
  const base = Math.min(FIRST_RETRY_MS * 2 ** (failures - 1), Math.max(intervalMs, MAX_RETRY_MS));
  return Math.round(base * (1 - Math.random() * 0.2));
}

/** How telling an event ended: its --exec command done (or none), failed, or stopped with the run. */
type Told = 'done' | 'failed' | 'stopped';

/** Tells one event and runs `exec`, its --exec command (none once the run was stopped). */
async function tell(ctx: Context, event: WatchEvent, settings: WatchSettings, exec: string | undefined): Promise<Told> {
  const text = eventText(event);
  await ctx.output.line(event, { human: () => `${clockTime(new Date(event.at))} ${text}\n`, quiet: () => `${event.id}\n` });
  // A dumb terminal (TERM=dumb) would show the notification's escape as text: the bell alone.
  if (settings.notify && ctx.io.stdoutIsTTY) ctx.io.stdout.write(ctx.io.cursorControl ? `\x07\x1b]9;tkt: ${text.replace(/[\x07\x1b]/g, '')}\x07` : '\x07');
  return exec === undefined ? 'done' : await execFor(ctx, exec, event, settings.once);
}

/** The events printed whose --exec command did not run (or not to its end) because the run was stopped: named. */
async function sayNotHooked(ctx: Context, events: readonly WatchEvent[]): Promise<void> {
  const count = `${events.length} ${events.length === 1 ? 'event' : 'events'}`;
  await ctx.output.warning(`--exec not run for ${count} (stopped): ${events.map((event) => `${event.event} #${event.id}`).join(', ')}\n`);
}

const two = (n: number) => String(n).padStart(2, '0');

function clockTime(date: Date): string {
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

const shownValue = (value: string | null) => (value === null ? '(none)' : sanitizeInline(value));
/** A due date in local time, as tkt list shows dates; anything else as it is. */
const shownField = (name: string, value: string | null) => (name === 'due' && value !== null ? formatDate(new Date(value)) || value : shownValue(value));

/** A removal's reason in the event's line: one not confirmed says why. */
function reasonText(reason: RemovedReason | undefined): string {
  if (reason === 'not confirmed') return `not confirmed: more than ${MAX_CONFIRM_READS} missing tickets in one poll`;
  return reason ?? 'left the view';
}

/**
 * `#1042 status Open → In Progress, priority Low → High`; `#1042 added: Printer jam (Open)`;
 * `#1042 removed (left the view): Printer jam (status Open → In Progress)`.
 */
export function eventText(event: WatchEvent): string {
  const { ticket } = event;
  const changes = Object.entries(event.changes)
    .map(([name, [from, to]]) => `${name} ${shownField(name, from)} → ${shownField(name, to)}`)
    .join(', ');
  switch (event.event) {
    case 'changed':
      return `#${event.id} ${changes}`;
    case 'added':
      return `#${event.id} added: ${shownValue(ticket.title)} (${shownValue(ticket.status)})`;
    case 'removed':
      return `#${event.id} removed (${reasonText(event.reason)}): ${shownValue(ticket.title)}${changes === '' ? '' : ` (${changes})`}`;
    case 'replied':
      return `#${event.id} replied: ${(event.replies ?? []).map((reply) => `${shownValue(reply.from)} (${sanitizeInline(entryType({ type: reply.kind ?? undefined, draft: false }))})`).join(', ')}`;
  }
}

// A second signal ends the command: SIGTERM to its group, then SIGKILL to one that stays.
const KILL_AFTER_MS = 2_000;

// A command's session of its own outlives tkt: when tkt exits while one runs (a third signal
// within the kill window, any direct exit), its pending SIGKILL is lost. The exit kills it, at once.
const liveHooks = new Set<ChildProcess>();
const killLiveHooks = () => {
  for (const child of liveHooks) signalGroup(child, 'SIGKILL');
};

function holdHook(child: ChildProcess): void {
  if (liveHooks.size === 0) process.on('exit', killLiveHooks);
  liveHooks.add(child);
}

function releaseHook(child: ChildProcess): void {
  liveHooks.delete(child);
  if (liveHooks.size === 0) process.off('exit', killLiveHooks);
}

/**
 * Runs `sh -c CMD` for one event: its JSON on stdin, its kind and ticket in the environment, its
 * output on stderr, in a session of its own (`detached`: its own process group, and no controlling
 * terminal; README, Watching). A first signal lets it end
 * and says so at once; a second ends its group. Said when it fails, when it runs past --timeout,
 * and when it ended by a signal after a stop was asked (given up, or ended by the user too):
 * stopped, not failed. Its own session keeps the terminal's Ctrl-C and SIGHUP for tkt to decide.
 */
async function execFor(ctx: Context, command: string, event: WatchEvent, once: boolean): Promise<Told> {
  const named = `${event.event} #${event.id}`;
  const timeoutSeconds = ctx.globals.timeout;
  const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | string>((resolve) => {
    const child = spawn('sh', ['-c', command], {
      env: { ...ctx.env, TKT_EVENT: event.event, TKT_TICKET_ID: String(event.id) },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    holdHook(child);
    child.stdout.on('data', (chunk: Buffer) => ctx.io.stderr.write(chunk));
    child.stderr.on('data', (chunk: Buffer) => ctx.io.stderr.write(chunk));
    // A command that does not read its stdin must not fail the write.
    child.stdin.on('error', () => {});
    child.stdin.end(`${JSON.stringify(event)}\n`);
    const slow = setTimeout(
      () => void ctx.output.warning(`--exec for ${named} still running after ${timeoutSeconds}s; the watch waits for it\n`),
      // A --timeout past the longest timer would fire at once (api/deadline.ts): as long as one holds.
      timerMs(timeoutSeconds * 1000),
    );
    let kill: NodeJS.Timeout | undefined;
    const onStop = () => {
      const name = String(ctx.signal.reason);
      const again = howToGiveUp(name, ctx.io.stdinIsTTY || ctx.io.stderrIsTTY);
      ctx.io.stderr.write(`${stoppedHow(name)}: stopping after the --exec command for ${named}; ${again}\n`);
    };
    const onHalt = () => {
      signalGroup(child, 'SIGTERM');
      kill = setTimeout(() => signalGroup(child, 'SIGKILL'), KILL_AFTER_MS);
    };
    ctx.signal.addEventListener('abort', onStop, { once: true });
    ctx.halt?.addEventListener('abort', onHalt, { once: true });
    const settle = (outcome: { code: number | null; signal: NodeJS.Signals | null } | string) => {
      clearTimeout(slow);
      clearTimeout(kill);
      releaseHook(child);
      ctx.signal.removeEventListener('abort', onStop);
      ctx.halt?.removeEventListener('abort', onHalt);
      resolve(outcome);
    };
    child.on('error', (error) => settle(error.message));
    child.on('close', (code, signal) => settle({ code, signal }));
  });
  if (typeof ended !== 'string' && ended.code === 0) return 'done';
  if (typeof ended !== 'string' && ended.signal !== null && ctx.signal.aborted) {
    await ctx.output.warning(`--exec stopped (killed by ${ended.signal}) for ${named}\n`);
    return 'stopped';
  }
  const outcome = typeof ended === 'string' ? ended : ended.signal !== null ? `killed by ${ended.signal}` : `exit ${ended.code}`;
  await ctx.output.warning(`--exec failed (${outcome}) for ${named}${once || ctx.signal.aborted ? '' : '; watching goes on'}\n`);
  return 'failed';
}
