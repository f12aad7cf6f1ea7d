import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeadlineExceeded, deadlineClock, type Deadline } from '../../src/api/deadline.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const never = new Promise<never>(() => undefined);
/** A deadline on a clock of its own. */
const startDeadline = (ms: number) => deadlineClock(ms)();

describe('a deadline', () => {
  it('rejects work that outlives it, even work that never settles, and aborts its signal', async () => {
    const deadline = startDeadline(300);
    const raced = deadline.race(never);
    const outcome = raced.then(
      () => 'settled',
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(299);
    expect(deadline.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBeInstanceOf(DeadlineExceeded);
    expect(deadline.signal.aborted).toBe(true);
    // Named like AbortSignal.timeout()'s reason, so the HTTP layer calls it a time-out.
    expect((deadline.signal.reason as Error).name).toBe('TimeoutError');
  });

  it('waits the longest time a timer can hold (2^31-1 ms) for anything longer, never passing at once', async () => {
    // Node (and the fake clock) runs a longer timer after 1 ms, with a warning.
    const longest = 2 ** 31 - 1;
    const deadline = startDeadline(3_000_000_000);
    await vi.advanceTimersByTimeAsync(longest - 1);
    expect(deadline.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(deadline.signal.aborted).toBe(true);
  });

  it('keeps nothing of a settled race: the answer of an exchange is not held for as long as its deadline is', async () => {
    // A bulk run's deadline outlives its races for a while (the request's close listener holds
    // it): what the races settled with must not be kept alive with it (V8 then promotes every
    // answer to its old space). Collected for sure only by a full collection, exposed here.
    vi.useRealTimers();
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const deadline = startDeadline(60_000);
    let answer: object | undefined = { body: 'x'.repeat(1000) };
    const held = new WeakRef(answer);
    expect(await deadline.race(Promise.resolve(answer))).toBe(answer);
    await expect(deadline.race(Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    answer = undefined;
    // A WeakRef's target lives to the end of the job that made or read it.
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    expect(held.deref()).toBeUndefined();
    expect(deadline.signal.aborted).toBe(false);
    deadline.stop();
  });

  it('settles like the work when the work is first', async () => {
    const deadline = startDeadline(300);
    await expect(deadline.race(Promise.resolve(7))).resolves.toBe(7);
    await expect(deadline.race(Promise.reject(new Error('refused')))).rejects.toThrow('refused');
  });

  it('restart gives the full time again from now: progress keeps an upload alive', async () => {
    const deadline = startDeadline(300);
    for (let chunk = 0; chunk < 10; chunk++) {
      await vi.advanceTimersByTimeAsync(200);
      deadline.restart();
    }
    expect(deadline.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(300);
    expect(deadline.signal.aborted).toBe(true);
  });

  it('stop ends the clock for good', async () => {
    const deadline = startDeadline(300);
    deadline.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(deadline.signal.aborted).toBe(false);
  });

  it('rejects work raced after it passed', async () => {
    const deadline = startDeadline(300);
    await vi.advanceTimersByTimeAsync(300);
    await expect(deadline.race(Promise.resolve(7))).rejects.toBeInstanceOf(DeadlineExceeded);
  });

  it('abort (the run halted) aborts the signal with its reason and leaves race to the work', async () => {
    const deadline = startDeadline(300);
    const halted = new Error('halted');
    deadline.abort(halted);
    expect(deadline.signal.reason).toBe(halted);
    await expect(deadline.race(Promise.resolve(7))).resolves.toBe(7);
  });

  it('tells the listeners of its signal once, as an AbortSignal would, and not one removed before', async () => {
    const deadline = startDeadline(300);
    const told: string[] = [];
    const removed = () => told.push('removed');
    deadline.signal.addEventListener('abort', () => told.push('first'));
    deadline.signal.addEventListener('abort', removed);
    deadline.signal.addEventListener('abort', () => told.push(`last: ${(deadline.signal.reason as Error).name}`));
    deadline.signal.removeEventListener('abort', removed);
    await vi.advanceTimersByTimeAsync(300);
    deadline.abort(new Error('halted later'));
    expect(told).toEqual(['first', 'last: TimeoutError']);
  });
});

describe('a clock of deadlines (one per client: its requests share one timer)', () => {
  /** Expects `deadline` to pass `ms` from now, not a millisecond sooner. */
  async function passesIn(deadline: Deadline, ms: number): Promise<void> {
    await vi.advanceTimersByTimeAsync(ms - 1);
    expect(deadline.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(deadline.signal.aborted).toBe(true);
  }

  it('passes each deadline at its own time, on one timer', async () => {
    const start = deadlineClock(300);
    const first = start();
    await vi.advanceTimersByTimeAsync(100);
    const second = start();
    expect(vi.getTimerCount()).toBe(1);

    await vi.advanceTimersByTimeAsync(200);
    expect([first.signal.aborted, second.signal.aborted]).toEqual([true, false]);
    await passesIn(second, 100);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('never passes a stopped deadline, and leaves no timer once none runs (a finished run is not held open)', async () => {
    const start = deadlineClock(300);
    const stopped = start();
    await vi.advanceTimersByTimeAsync(100);
    const running = start();
    stopped.stop();

    await vi.advanceTimersByTimeAsync(300);
    expect([stopped.signal.aborted, running.signal.aborted]).toEqual([false, true]);

    start().stop();
    start().stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('restart sends a deadline after the others: each still passes at its own time', async () => {
    const start = deadlineClock(300);
    const upload = start();
    await vi.advanceTimersByTimeAsync(100);
    const read = start();
    await vi.advanceTimersByTimeAsync(100);
    upload.restart();

    await vi.advanceTimersByTimeAsync(200);
    expect([upload.signal.aborted, read.signal.aborted]).toEqual([false, true]);
    await passesIn(upload, 100);
  });

  it('times a deadline started by the listener of one passing (a retry as the first gives up) as any other', async () => {
    const start = deadlineClock(300);
    const started: ReturnType<typeof start>[] = [];
    start().signal.addEventListener('abort', () => started.push(start()));

    await vi.advanceTimersByTimeAsync(300);
    expect(started).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(1);
    await passesIn(started[0]!, 300);
    expect(vi.getTimerCount()).toBe(0);
  });
});
