import { describe, expect, it } from 'vitest';
import type { Received } from '../../src/api/answer.js';
import { plans } from '../../src/api/plans.js';
import { attemptsFor, DEFAULT_RETRY_BASE_DELAY_MS, MAX_RETRY_DELAY_MS, nextRetry, withRetries } from '../../src/api/retry.js';
import type { Retry } from '../../src/api/types.js';
import { InterruptedError, NetworkError, type NetworkFailure } from '../../src/errors.js';
import { manualClock } from '../helpers/manual-clock.js';

const BASE = DEFAULT_RETRY_BASE_DELAY_MS;
const NOW = Date.parse('2026-01-01T00:00:00Z');

const answer = (status: number, headers: Received['headers'] = {}): Received => ({ status, headers, url: 'http://h/x', body: undefined, problem: undefined });
const failure = (kind: NetworkFailure): NetworkError => new NetworkError(kind, 'GET', 'http://h/x', `${kind}: GET http://h/x`);

describe('attemptsFor', () => {
  it('tries a read three times, a change once', () => {
    expect(attemptsFor(plans.getTicket(1))).toBe(3);
    expect(attemptsFor(plans.listTickets({}))).toBe(3);
    expect(attemptsFor(plans.register({ fields: { Title: 't' } }))).toBe(1);
    expect(attemptsFor(plans.pickupTicket(1))).toBe(1);
  });
});

describe('nextRetry', () => {
  const status = (code: number, retryAfter?: string) => ({ status: code, retryAfter });

  it.each([429, 502, 503, 504])('retries HTTP %i, doubling the wait from the base', (code) => {
    expect(nextRetry(status(code), 1, 3, BASE, NOW)).toEqual({ reason: `HTTP ${code}`, status: code, delayMs: BASE });
    expect(nextRetry(status(code), 2, 3, BASE, NOW)).toEqual({ reason: `HTTP ${code}`, status: code, delayMs: 2 * BASE });
  });

  it.each([200, 204, 301, 400, 401, 404, 409, 500, 501])('takes HTTP %i as it is', (code) => {
    expect(nextRetry(status(code), 1, 3, BASE, NOW)).toBeUndefined();
  });

  it.each<NetworkFailure>(['refused', 'reset'])('retries a connection %s', (kind) => {
    expect(nextRetry({ failure: kind }, 1, 3, BASE, NOW)).toEqual({ reason: `connection ${kind}`, failure: kind, delayMs: BASE });
  });

  // A time-out may have reached the service; the others will not pass a moment later.
  it.each<NetworkFailure>(['timeout', 'dns', 'tls', 'other'])('does not retry a %s failure', (kind) => {
    expect(nextRetry({ failure: kind }, 1, 3, BASE, NOW)).toBeUndefined();
  });

  it('stops at the last try, and never retries a request allowed one', () => {
    expect(nextRetry(status(503), 3, 3, BASE, NOW)).toBeUndefined();
    expect(nextRetry({ failure: 'reset' }, 3, 3, BASE, NOW)).toBeUndefined();
    expect(nextRetry(status(503), 1, 1, BASE, NOW)).toBeUndefined();
  });

  it('waits as long as Retry-After says, in seconds or as a date, capped; the backoff when it cannot be read', () => {
    expect(nextRetry(status(429, '2'), 1, 3, BASE, NOW)?.delayMs).toBe(2000);
    expect(nextRetry(status(503, 'Thu, 01 Jan 2026 00:00:03 GMT'), 1, 3, BASE, NOW)?.delayMs).toBe(3000);
    expect(nextRetry(status(503, '0'), 2, 3, BASE, NOW)?.delayMs).toBe(0);
    expect(nextRetry(status(429, '86400'), 1, 3, BASE, NOW)?.delayMs).toBe(MAX_RETRY_DELAY_MS);
    expect(nextRetry(status(429, 'later'), 2, 3, BASE, NOW)?.delayMs).toBe(2 * BASE);
  });

  it('caps the backoff too', () => {
    expect(nextRetry(status(503), 2, 3, MAX_RETRY_DELAY_MS, NOW)?.delayMs).toBe(MAX_RETRY_DELAY_MS);
  });
});

describe('withRetries', () => {
  /** Lets every pending callback run: a try that were due would be made by then. */
  const turnOfTheEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

  /** Runs withRetries over `outcomes`, one per try, with a clock that moves only when told. */
  function retrying(attempts: number, outcomes: Array<Received | Error>, giveUp?: AbortSignal) {
    const clock = manualClock(NOW);
    const retries: Array<[Retry, number]> = [];
    let tries = 0;
    const result = withRetries(
      async () => {
        const outcome = outcomes[tries++];
        if (outcome === undefined) throw new Error('tried once too often');
        if (outcome instanceof Error) throw outcome;
        return outcome;
      },
      { attempts, baseDelayMs: BASE, clock, giveUp, onRetry: (retry, attempt) => retries.push([retry, attempt]) },
    );
    const settled = result.then(
      (value) => value,
      (error: unknown) => error,
    );
    return { clock, retries, tries: () => tries, settled };
  }

  it('tries again only once the wait is over, and returns the answer that stands', async () => {
    const run = retrying(3, [answer(503), answer(429, { 'retry-after': '3' }), answer(200)]);

    expect(await run.clock.nextSleep()).toBe(BASE);
    expect(run.tries()).toBe(1);
    run.clock.advance(BASE - 1);
    await turnOfTheEventLoop();
    expect(run.tries()).toBe(1);
    run.clock.advance(1);

    expect(await run.clock.nextSleep()).toBe(3000);
    expect(run.tries()).toBe(2);
    run.clock.advance(3000);

    expect(await run.settled).toMatchObject({ status: 200 });
    expect(run.retries).toEqual([
      [{ reason: 'HTTP 503', status: 503, delayMs: BASE }, 2],
      [{ reason: 'HTTP 429', status: 429, delayMs: 3000 }, 3],
    ]);
  });

  it('ends a wait at once when the request is given up (a read no one waits for), as InterruptedError, and tries no more', async () => {
    const giveUp = new AbortController();
    const run = retrying(3, [answer(503, { 'retry-after': '5' }), answer(200)], giveUp.signal);
    expect(await run.clock.nextSleep()).toBe(5000);
    giveUp.abort();
    // The clock never moves: only the abort ends the wait.
    expect(await run.settled).toBeInstanceOf(InterruptedError);
    expect(run.tries()).toBe(1);
  });

  it('returns the last failing answer once the tries are spent', async () => {
    const run = retrying(2, [answer(502), answer(504)]);
    run.clock.advance(await run.clock.nextSleep());
    expect(await run.settled).toMatchObject({ status: 504 });
    expect(run.tries()).toBe(2);
  });

  it('throws the last dropped connection once the tries are spent', async () => {
    const last = failure('reset');
    const run = retrying(3, [failure('refused'), failure('reset'), last]);
    run.clock.advance(await run.clock.nextSleep());
    run.clock.advance(await run.clock.nextSleep());
    expect(await run.settled).toBe(last);
    expect(run.retries.map(([retry]) => retry)).toEqual([
      { reason: 'connection refused', failure: 'refused', delayMs: BASE },
      { reason: 'connection reset', failure: 'reset', delayMs: 2 * BASE },
    ]);
  });

  it('throws at once what is not worth a retry', async () => {
    const timeout = failure('timeout');
    expect(await retrying(3, [timeout]).settled).toBe(timeout);
    const bug = new TypeError('not a network failure');
    expect(await retrying(3, [bug]).settled).toBe(bug);
  });

  it('returns at once an answer of a request allowed one try', async () => {
    const run = retrying(1, [answer(503)]);
    expect(await run.settled).toMatchObject({ status: 503 });
    expect(run.retries).toEqual([]);
  });
});
