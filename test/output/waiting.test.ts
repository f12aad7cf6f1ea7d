import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/http.js';
import { plans } from '../../src/api/plans.js';
import { createProgress } from '../../src/output/progress.js';
import { createWaitNotice, WAIT_NOTICE_DELAY_MS } from '../../src/output/waiting.js';
import { createTestIO } from '../helpers/io.js';
import { listenOnLoopback } from '../helpers/loopback.js';
import { manualClock, manualTimer } from '../helpers/manual-clock.js';

const ERASE_LINE = '\r\u001b[2K';

/** A request the test answers (or fails) when it chooses. */
function pending<T>(): { promise: Promise<T>; answer(value: T): void; fail(error: Error): void } {
  let answer: (value: T) => void = () => {};
  let fail: (error: Error) => void = () => {};
  const promise = new Promise<T>((resolve, reject) => {
    answer = resolve;
    fail = reject;
  });
  return { promise, answer, fail };
}

function setup(columns = 80) {
  const test = createTestIO({ isTTY: true, color: true, columns });
  const timer = manualTimer();
  return { test, timer, notice: createWaitNotice(test.io, timer.start) };
}

describe('the wait notice', () => {
  it('says nothing for an answer within a second', async () => {
    const { test, timer, notice } = setup();
    const request = pending<string>();
    const answered = notice.watch('helpdesk.example.com', request.promise);
    timer.advance(WAIT_NOTICE_DELAY_MS - 1);
    request.answer('body');
    expect(await answered).toBe('body');
    expect(test.stderr()).toBe('');
    expect(timer.pending()).toBe(0);
  });

  it('shows one line once the answer is a second late, and erases it before the caller gets the answer', async () => {
    const { test, timer, notice } = setup();
    const request = pending<string>();
    const answered = notice.watch('helpdesk.example.com:8443', request.promise).then((body) => ({ body, stderr: test.stderr() }));
    timer.advance(WAIT_NOTICE_DELAY_MS);
    expect(test.stderr()).toBe(`${ERASE_LINE}Waiting for helpdesk.example.com:8443…`);
    // The time-out is the request's own: the line stays however long it waits.
    timer.advance(60_000);
    request.answer('body');
    expect(await answered).toEqual({ body: 'body', stderr: `${ERASE_LINE}Waiting for helpdesk.example.com:8443…${ERASE_LINE}` });
  });

  it('erases the line when the request fails, and the failure reaches the caller', async () => {
    const { test, timer, notice } = setup();
    const request = pending<string>();
    const answered = notice.watch('h', request.promise);
    timer.advance(WAIT_NOTICE_DELAY_MS);
    request.fail(new Error('timed out'));
    await expect(answered).rejects.toThrow('timed out');
    expect(test.stderr().endsWith(ERASE_LINE)).toBe(true);
  });

  it('keeps one line while any of several requests waits, erasing it when the last answers', async () => {
    const { test, timer, notice } = setup();
    const first = pending<number>();
    const second = pending<number>();
    const answers = [notice.watch('h', first.promise), notice.watch('h', second.promise)];
    timer.advance(WAIT_NOTICE_DELAY_MS);
    first.answer(1);
    await answers[0];
    expect(test.stderr()).toBe(`${ERASE_LINE}Waiting for h…`);
    second.answer(2);
    await answers[1];
    expect(test.stderr()).toBe(`${ERASE_LINE}Waiting for h…${ERASE_LINE}`);
    // The next slow request waits its own second again.
    const third = pending<number>();
    const answer = notice.watch('h', third.promise);
    timer.advance(WAIT_NOTICE_DELAY_MS - 1);
    expect(test.stderr()).toBe(`${ERASE_LINE}Waiting for h…${ERASE_LINE}`);
    third.answer(3);
    await answer;
  });

  it('end() erases the line at once (the run ends) and draws no more, telling whether a line was there', () => {
    const { test, timer, notice } = setup();
    void notice.watch('h', pending<number>().promise);
    expect(notice.end()).toBe(false);
    const { notice: shown, test: shownTest, timer: shownTimer } = setup();
    void shown.watch('h', pending<number>().promise);
    shownTimer.advance(WAIT_NOTICE_DELAY_MS);
    expect(shown.end()).toBe(true);
    expect(shownTest.stderr()).toBe(`${ERASE_LINE}Waiting for h…${ERASE_LINE}`);
    void shown.watch('h', pending<number>().promise);
    shownTimer.advance(WAIT_NOTICE_DELAY_MS);
    expect(shownTest.stderr()).toBe(`${ERASE_LINE}Waiting for h…${ERASE_LINE}`);
    expect(test.stderr()).toBe('');
    expect(timer.pending()).toBe(0);
  });

  it('fits a narrow terminal: one column spare, so the line never wraps and can be erased', () => {
    const { test, timer, notice } = setup(20);
    void notice.watch('a-very-long-host-name.example.com', pending<number>().promise);
    timer.advance(WAIT_NOTICE_DELAY_MS);
    expect(test.stderr()).toBe(`${ERASE_LINE}Waiting for a-very-`);
  });

  it("names the service's host of a client, and the proxy it goes through", () => {
    const { test, timer, notice } = setup(120);
    const send = () => pending<never>().promise;
    void notice
      .watching({ baseUrl: 'https://helpdesk.example.com/sub', proxy: 'http://proxy.corp:3128', send, dispose: async () => {} })
      .send(plans.getTicket(7));
    timer.advance(WAIT_NOTICE_DELAY_MS);
    expect(test.stderr()).toBe(`${ERASE_LINE}Waiting for helpdesk.example.com via proxy http://proxy.corp:3128…`);
  });
  it('says why a read waits to be tried again, and for how long; then which try is on its way', async () => {
    const answers = [503, 429, 200];
    const server = await listenOnLoopback(
      createServer((_req, res) => {
        const status = answers.shift()!;
        if (status === 200) res.writeHead(200, { 'content-type': 'application/json' }).end('{"ticketId": 7}');
        else res.writeHead(status, { 'retry-after': status === 503 ? '8' : '2', 'content-type': 'text/plain' }).end('busy');
      }),
    );
    try {
      const { test, timer, notice } = setup(120);
      const clock = manualClock();
      const client = createApiClient({ baseUrl: server.url, timeoutMs: 30_000, clock, env: {} });
      const host = new URL(server.url).host;
      const answered = notice.watching(client).send(plans.getTicket(7));
      expect(await clock.nextSleep()).toBe(8_000);
      timer.advance(WAIT_NOTICE_DELAY_MS);
      expect(test.stderr()).toBe(`${ERASE_LINE}Waiting for ${host}: the service is busy (503): trying again in 8 s (try 2 of 3)…`);
      // The wait over, the request goes again: no count-down left on the line.
      timer.advance(8_000 - WAIT_NOTICE_DELAY_MS);
      clock.advance(8_000);
      expect(test.stderr().endsWith(`${ERASE_LINE}Waiting for ${host} (try 2 of 3)…`)).toBe(true);
      expect(await clock.nextSleep()).toBe(2_000);
      expect(test.stderr().endsWith(`${ERASE_LINE}Waiting for ${host}: too many requests (429): trying again in 2 s (try 3 of 3)…`)).toBe(true);
      clock.advance(2_000);
      expect((await answered).body).toEqual({ ticketId: 7 });
      expect(test.stderr().endsWith(ERASE_LINE)).toBe(true);
      expect(timer.pending()).toBe(0);
      await client.dispose();
    } finally {
      await server.close();
    }
  });
});

describe('the wait notice and what else has the terminal', () => {
  it('is erased before a prompt, the editor or the pager takes the terminal, not drawn while it has it, and drawn again after while the wait goes on', async () => {
    const { test, timer, notice } = setup();
    const request = pending<string>();
    const answered = notice.watch('h', request.promise);
    timer.advance(WAIT_NOTICE_DELAY_MS);
    const asked = pending<string>();
    let atPrompt = '';
    const prompt = notice.aside(() => {
      atPrompt = test.stderr();
      return asked.promise;
    });
    expect(atPrompt).toBe(`${ERASE_LINE}Waiting for h…${ERASE_LINE}`);
    // Neither a retry said meanwhile nor time passing draws over the prompt.
    notice.retrying('h', { reason: 'HTTP 503', status: 503, delayMs: 2_000 }, 2, 3);
    timer.advance(5_000);
    expect(test.stderr()).toBe(atPrompt);
    asked.answer('yes');
    expect(await prompt).toBe('yes');
    // Still waiting: the line again, under what the prompt left on the screen.
    expect(test.stderr()).toBe(`${atPrompt}${ERASE_LINE}Waiting for h (try 2 of 3)…`);
    request.answer('body');
    await answered;
    expect(test.stderr().endsWith(ERASE_LINE)).toBe(true);
    expect(timer.pending()).toBe(0);
  });

  it('draws nothing over a prompt for a request sent while it is up; the line comes once the prompt is done', async () => {
    const { test, timer, notice } = setup();
    const asked = pending<boolean>();
    const prompt = notice.aside(() => asked.promise);
    const request = pending<string>();
    const answered = notice.watch('h', request.promise);
    timer.advance(WAIT_NOTICE_DELAY_MS);
    expect(test.stderr()).toBe('');
    asked.answer(true);
    await prompt;
    expect(test.stderr()).toBe(`${ERASE_LINE}Waiting for h…`);
    request.answer('body');
    await answered;
    expect(test.stderr()).toBe(`${ERASE_LINE}Waiting for h…${ERASE_LINE}`);
  });

  it('says nothing after a prompt whose wait ended meanwhile, nor for a prompt with nothing in flight', async () => {
    const { test, timer, notice } = setup();
    const request = pending<string>();
    const answered = notice.watch('h', request.promise);
    timer.advance(WAIT_NOTICE_DELAY_MS);
    await notice.aside(async () => {
      request.answer('body');
      await answered;
    });
    await notice.aside(async () => {});
    expect(test.stderr()).toBe(`${ERASE_LINE}Waiting for h…${ERASE_LINE}`);
  });

  // One line drawn in place at a time: a bulk run's bar says the run goes on, and how far.
  it('gives way to a progress bar: erased when the bar is drawn, and not drawn while the bar shows', async () => {
    const test = createTestIO({ isTTY: true, color: true });
    const io = { ...test.io, liveLines: new Set<{ erase(): boolean; restore(): void }>() };
    const timer = manualTimer();
    const notice = createWaitNotice(io, timer.start);
    const first = pending<string>();
    const looked = notice.watch('h', first.promise);
    timer.advance(WAIT_NOTICE_DELAY_MS);
    expect(test.stderr()).toBe(`${ERASE_LINE}Waiting for h…`);
    const progress = createProgress(io, { total: 2, label: 'closed' });
    const bar = `closed [${'░'.repeat(30)}] 0/2`;
    expect(test.stderr()).toBe(`${ERASE_LINE}Waiting for h…${ERASE_LINE}${ERASE_LINE}${bar}`);
    first.answer('body');
    await looked;
    // A request of the run waits a second, and is told again: the bar stays alone on its line.
    const second = pending<string>();
    const closed = notice.watch('h', second.promise);
    timer.advance(WAIT_NOTICE_DELAY_MS);
    notice.retrying('h', { reason: 'HTTP 503', status: 503, delayMs: 2_000 }, 2, 3);
    expect(test.stderr()).toBe(`${ERASE_LINE}Waiting for h…${ERASE_LINE}${ERASE_LINE}${bar}`);
    second.answer('body');
    await closed;
    progress.done();
    expect(test.stderr()).toBe(`${ERASE_LINE}Waiting for h…${ERASE_LINE}${ERASE_LINE}${bar}${ERASE_LINE}`);
    expect(timer.pending()).toBe(0);
  });
});
