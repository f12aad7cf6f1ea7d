// Memory of a long watch stays flat (README, Watching): over 200 polls of a 500-ticket view, each
// after a change to one ticket (so every poll tells an event and rewrites --state), the heap
// after a full collection does not grow from polls 20-29 to polls 191-200, and no listener piles
// up on the run's signal. The real loop and its real timer run, waiting 0 ms; the samples are
// taken at the watch's own waits, never by time.
import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/commands/watch.js';
import { InterruptedError } from '../../src/errors.js';
import { realTimer, type WatchTimer } from '../../src/watch/watch.js';
import { withIO, type Harness } from '../helpers/harness.js';
import { useHarness, useTempDir } from '../helpers/sandbox-state.js';

const TICKETS = 500;
const POLLS = 200;
// Polls before the first samples: caches, JIT and connection pools settle.
const WARM_UP = 20;
const SAMPLES = 10;
// Keeping one poll's snapshot (~100 kB) per poll would grow the heap by ~20 MB here; after the
// warm-up the heap drifts by under 1 MB (compiled code, V8's feedback).
const GROWTH_BOUND = 4 * 1024 * 1024;

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

let h: Harness;
useHarness({ sandbox: { seedTickets: TICKETS } }, (harness) => (h = harness));
let dir: string;
useTempDir('tkt-watch-memory-', (path) => (dir = path));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

describe('tkt watch over many polls', () => {
  it('keeps its memory flat: no growth of the heap or of signal listeners from poll to poll', async () => {
    const live = h.sandbox.state.tickets.filter((ticket) => !ticket.isDeleted);
    expect(live.length).toBeGreaterThan(TICKETS);
    let polls = 0;
    const heap: number[] = [];
    const listeners: number[] = [];
    let events = 0;
    const r = await h.context({ globals: { json: true }, env: { TKT_TEST_WATCH_INTERVAL_MS: '0' } });
    // Events go nowhere: the harness's own stdout keeps every byte.
    const discard = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        events += chunk.toString('utf8').split('\n').length - 1;
        callback();
      },
    });
    const ctx = await withIO(r.ctx, { ...r.ctx.io, stdout: discard });
    // The real timer, sampled at each wait: the poll before it is done and told.
    const sampling: WatchTimer = {
      sleep: (ms, signal) => {
        polls++;
        listeners.push(getEventListeners(ctx.signal, 'abort').length);
        // A full collection is slow: only in the two windows compared.
        if ((polls > WARM_UP && polls <= WARM_UP + SAMPLES) || polls > POLLS - SAMPLES) {
          collectGarbage();
          heap.push(process.memoryUsage().heapUsed);
        }
        if (polls === POLLS) r.abort.abort('SIGTERM');
        else live[polls % live.length]!.title = `Changed at poll ${polls}`;
        return realTimer.sleep(ms, signal);
      },
    };
    await expect(run({ view: 'all-tickets', interval: '10', state: join(dir, 'state.json') }, ctx, sampling)).rejects.toBeInstanceOf(InterruptedError);

    expect(polls).toBe(POLLS);
    expect(events).toBe(POLLS - 1);
    const early = median(heap.slice(0, SAMPLES));
    const late = median(heap.slice(SAMPLES));
    expect(late - early, `heap ${(early / 1e6).toFixed(1)} MB after poll ${WARM_UP}, ${(late / 1e6).toFixed(1)} MB at poll ${POLLS}`).toBeLessThan(
      GROWTH_BOUND,
    );
    expect(new Set(listeners.slice(WARM_UP)).size).toBe(1);
  }, 120_000);
});
