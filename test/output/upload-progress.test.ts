// The upload's progress on the wait notice's line (src/output/upload-progress.ts, waiting.ts), on
// the test's clock: nothing waits for real time. The watcher is the one the notice hands a
// client's send, as the API client gets it (api/upload.ts tells it as the connection takes bytes).
import { describe, expect, it } from 'vitest';
import { plans } from '../../src/api/plans.js';
import type { ApiResponse, RequestPlan, UploadWatcher } from '../../src/api/types.js';
import { REDRAW_INTERVAL_MS } from '../../src/output/progress.js';
import { uploadProgress } from '../../src/output/upload-progress.js';
import { createWaitNotice, WAIT_NOTICE_DELAY_MS } from '../../src/output/waiting.js';
import { createTestIO } from '../helpers/io.js';
import { manualTimer } from '../helpers/manual-clock.js';

const ERASE_LINE = '\r\u001b[2K';
const MB = 1024 * 1024;

/** `plan` sent through a client watched by a notice with upload progress, its answer when the test says. */
function sending(plan: RequestPlan, { columns = 80, withProgress = true } = {}) {
  const test = createTestIO({ isTTY: true, color: true, columns });
  const timer = manualTimer();
  const notice = createWaitNotice(test.io, timer.start, withProgress ? uploadProgress : undefined);
  let answer: (response: ApiResponse) => void = () => {};
  let watcher: UploadWatcher | undefined;
  const client = notice.watching({
    baseUrl: 'https://helpdesk.example.com',
    send: (_plan, options) => {
      watcher = options?.upload;
      return new Promise<ApiResponse>((resolve) => (answer = resolve));
    },
    dispose: async () => {},
  });
  const answered = client.send(plan);
  const respond = async () => {
    answer({ status: 200, headers: {}, body: {}, url: '' });
    await answered;
  };
  return { test, timer, notice, watcher, respond };
}

const upload = (...names: string[]) =>
  plans.addFiles(
    7,
    names.map((name) => ({ path: `/tmp/${name}`, name })),
  );

describe('the progress of an upload on the wait notice', () => {
  it('says nothing of a small upload answered within a second', async () => {
    const { test, timer, watcher, respond } = sending(upload('a.txt'));
    watcher!.fileStarted(0, 5);
    watcher!.taken(5);
    watcher!.bodySent();
    timer.advance(WAIT_NOTICE_DELAY_MS - 1);
    await respond();
    expect(test.stderr()).toBe('');
    expect(timer.pending()).toBe(0);
  });

  it('shows how far the file is sent once the upload has run a second, redrawn at most every REDRAW_INTERVAL_MS, then what it waits for', async () => {
    const { test, timer, watcher, respond } = sending(upload('report.zip'));
    watcher!.fileStarted(0, 1000 * MB);
    watcher!.taken(100 * MB);
    expect(test.stderr()).toBe('');
    timer.advance(WAIT_NOTICE_DELAY_MS);
    expect(test.stderr()).toBe(`${ERASE_LINE}Uploading report.zip: 100 MB of 1000 MB (10%)`);
    // Chunk after chunk within one interval: one redraw, with the last figure.
    for (let chunk = 0; chunk < 300; chunk++) watcher!.taken(MB);
    timer.advance(REDRAW_INTERVAL_MS - 1);
    expect(test.stderr().split(ERASE_LINE)).toHaveLength(2);
    timer.advance(1);
    expect(test.stderr()).toBe(`${ERASE_LINE}Uploading report.zip: 100 MB of 1000 MB (10%)${ERASE_LINE}Uploading report.zip: 400 MB of 1000 MB (40%)`);
    // Nothing moved, nothing drawn.
    timer.advance(10 * REDRAW_INTERVAL_MS);
    expect(test.stderr().split(ERASE_LINE)).toHaveLength(3);
    watcher!.taken(600 * MB);
    timer.advance(REDRAW_INTERVAL_MS);
    expect(test.stderr().endsWith(`${ERASE_LINE}Uploading report.zip: 1000 MB of 1000 MB (100%)`)).toBe(true);
    // The body sent, the service has it: the line says what the run waits for, at once.
    watcher!.bodySent();
    expect(test.stderr().endsWith(`${ERASE_LINE}Waiting for helpdesk.example.com…`)).toBe(true);
    await respond();
    expect(test.stderr().endsWith(`Waiting for helpdesk.example.com…${ERASE_LINE}`)).toBe(true);
    expect(timer.pending()).toBe(0);
  });

  it('names the file in flight among several, and counts what a pipe sent, its size unknown', () => {
    const { test, timer, watcher } = sending(upload('a.txt', 'b.zip', 'stdin'));
    watcher!.fileStarted(0, 10);
    watcher!.taken(10);
    watcher!.fileStarted(1, 4 * MB);
    watcher!.taken(MB);
    timer.advance(WAIT_NOTICE_DELAY_MS);
    expect(test.stderr()).toBe(`${ERASE_LINE}Uploading b.zip (file 2 of 3): 1 MB of 4 MB (25%)`);
    watcher!.taken(3 * MB);
    // The next file is named at once.
    watcher!.fileStarted(2, undefined);
    expect(test.stderr().endsWith(`${ERASE_LINE}Uploading stdin (file 3 of 3): 0 bytes sent`)).toBe(true);
    watcher!.taken(1536 * 1024);
    timer.advance(REDRAW_INTERVAL_MS);
    expect(test.stderr().endsWith(`${ERASE_LINE}Uploading stdin (file 3 of 3): 1.5 MB sent`)).toBe(true);
  });

  it('shows a name with its controls made visible, and fits a narrow terminal', () => {
    const { test, timer, watcher } = sending(upload('invoice\u202Etxt.exe'), { columns: 30 });
    watcher!.fileStarted(0, 2048);
    timer.advance(WAIT_NOTICE_DELAY_MS);
    expect(test.stderr()).toBe(`${ERASE_LINE}${'Uploading invoice<U+202E>txt.exe: 0 bytes of 2 KB (0%)'.slice(0, 29)}`);
  });

  it('end() erases the line in the middle of an upload, and nothing the upload tells draws it again', () => {
    const { test, timer, notice, watcher } = sending(upload('big.iso'));
    watcher!.fileStarted(0, 10 * MB);
    timer.advance(WAIT_NOTICE_DELAY_MS);
    watcher!.taken(MB);
    expect(notice.end()).toBe(true);
    watcher!.taken(MB);
    watcher!.fileStarted(0, 10 * MB);
    watcher!.bodySent();
    timer.advance(WAIT_NOTICE_DELAY_MS);
    expect(test.stderr()).toBe(`${ERASE_LINE}Uploading big.iso: 0 bytes of 10 MB (0%)${ERASE_LINE}`);
    expect(timer.pending()).toBe(0);
  });

  it('watches no request without files, and no upload of a notice without upload progress (every command but attach)', () => {
    expect(sending(plans.getTicket(7)).watcher).toBeUndefined();
    expect(sending(upload('a.txt'), { withProgress: false }).watcher).toBeUndefined();
  });
});
