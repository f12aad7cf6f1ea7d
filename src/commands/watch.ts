import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import { addFilterOptions, hasFilters } from '../listing/filter.js';
import { wholeNumberOption } from '../util/ids.js';
import { collectIds } from '../bulk/ids.js';
import { DEFAULT_INTERVAL_SECONDS, intervalMs, MIN_INTERVAL_SECONDS } from '../watch/interval.js';
import type { ViewWatchOptions } from '../watch/polls.js';
import type { WatchTimer } from '../watch/watch.js';

export interface WatchOptions extends ViewWatchOptions {
  ids?: string[] | undefined;
  interval?: string | undefined;
  once?: boolean | undefined;
  initial?: boolean | undefined;
  state?: string | undefined;
  notify?: boolean | undefined;
  exec?: string | undefined;
}

/** Test-only: the --interval in milliseconds, for tests and the bench that poll a child many times (README, Watching). */
const TEST_INTERVAL_VARIABLE = 'TKT_TEST_WATCH_INTERVAL_MS';

const EXAMPLES = `
Events: added (entered the watched set), removed (left it: deleted, or left the view,
confirmed first), changed (status, priority, assignee, due, title: old → new) and, for
given IDs, replied (new conversation entries).
The first poll sets the baseline and prints nothing (--initial: every ticket as added).
--state FILE keeps the last poll between runs, written after its events are out: run with
--once from cron, it prints exactly what changed since the previous run.
--json: one JSON Line per event. --exec CMD: sh -c CMD per event, in order, with the event's
JSON on stdin and TKT_EVENT, TKT_TICKET_ID set; its output goes to stderr. A failing CMD is
a warning; with --once the run exits 1 and leaves --state as it was, to tell them again.
A network failure or 5xx is said once and retried with backoff (with --once: exit 1).

Examples:
  $ tkt watch --view unassigned-tickets --notify
  $ tkt watch --once --state watch.json --json --exec 'curl -sd @- "$HOOK"'
  $ tkt watch --assignee @me --json | jq -c .changes
  $ tkt watch 42 43`;

export function register(program: Program, host: CommandHost): void {
  const watching = program
    .command('watch')
    .description('Tell what changes in a view or in given tickets, as it happens')
    .argument('[ids...]', 'ticket IDs to watch (their conversation too); - reads them from stdin')
    .option('--view <view>', 'a list type, as for tkt list (default: "tkt config get default-view", else the service\'s own)')
    .option('--search <text>', 'keyword, as for tkt list')
    .option('--in <fields>', 'where --search looks, as for tkt list')
    .option('--requester <user>', 'tickets of one requester, as for tkt list');
  const command = addFilterOptions(watching)
    .option('--interval <seconds>', `seconds between polls, at least ${MIN_INTERVAL_SECONDS}`, String(DEFAULT_INTERVAL_SECONDS))
    .option('--once', 'poll once and exit')
    .option('--initial', 'tell every ticket of the first poll as added')
    .option('--state <file>', 'keep the last poll in FILE between runs')
    .option('--notify', 'at a terminal, a bell and a desktop notification per event')
    .option('--exec <cmd>', 'run sh -c CMD for each event, its JSON on stdin')
    .addHelpText('after', EXAMPLES);
  host.action(command, ([ids], opts, ctx) => run({ ids, ...opts }, ctx), { graceful: true, waitsQuietly: true, saysWaiting: false });
}

/** `timer` is for tests only: a clock they move instead of waiting (test/commands/watch.test.ts). */
export async function run(options: WatchOptions, ctx: Context, timer?: WatchTimer): Promise<void> {
  const interval = wholeNumberOption('--interval', options.interval ?? String(DEFAULT_INTERVAL_SECONDS), { min: MIN_INTERVAL_SECONDS });
  // A watch runs for days, through upgrades of tkt (Context.loadAhead).
  await ctx.loadAhead();
  const { viewPoll, ticketsPoll } = await import('../watch/polls.js');
  const { currentWatcher, holdState, ticketsWatching, viewWatching } = await import('../watch/state-file.js');
  const { waitClock, watch } = await import('../watch/watch.js');
  const { ids: givenIds, interval: _interval, once, initial, state: stateFile, notify, exec, ...watched } = options;
  let ids: number[] | undefined;
  if (givenIds !== undefined && givenIds.length > 0) {
    if (hasFilters(options) || (['view', 'search', 'in', 'requester'] as const).some((name) => options[name] !== undefined)) {
      throw new UsageError('ticket IDs cannot be combined with a view, --search, --requester or filters', { hint: 'watch either tickets or a view' });
    }
    ids = await collectIds(givenIds, () => ctx.io.stdin, ctx.signal);
    // Empty stdin is nothing to do, as for every ID... command (a cron job's quiet day): watching
    // no ticket would wait forever for nothing, so the watch ends at once. Stopped before any ID
    // came, the run says only that it was interrupted.
    if (ids.length === 0) {
      if (!ctx.signal.aborted) await ctx.output.note('no ticket IDs on stdin: nothing to watch\n');
      return;
    }
  }
  // The state file is checked before any request: one of another watch is refused. The watch
  // holds it until it ends (README, Watching).
  const watching = ids === undefined ? viewWatching(watched, ctx) : ticketsWatching(ids);
  const state = stateFile === undefined ? undefined : await holdState(stateFile, await currentWatcher(ctx), watching, ctx, waitClock(ctx, timer));
  try {
    const poll = ids === undefined ? await viewPoll(watched, ctx) : ticketsPoll(ids);
    await watch(
      ctx,
      poll,
      {
        intervalMs: intervalMs(interval, ctx, TEST_INTERVAL_VARIABLE),
        once: once === true,
        initial: initial === true,
        watching,
        state,
        exec,
        notify: notify === true,
      },
      timer,
    );
  } finally {
    state?.release();
  }
}
