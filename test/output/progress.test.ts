import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IO } from '../../src/output/io.js';
import { createProgress } from '../../src/output/progress.js';
import { createCollector, createTestIO } from '../helpers/io.js';

const ERASE_LINE = '\r\u001b[2K';

/** stdout and stderr on one terminal, as in an interactive shell: one shared transcript. */
function terminal(columns = 80): { io: IO; transcript(): string } {
  const screen = createCollector();
  const { io } = createTestIO({ isTTY: true, color: true, columns });
  return { io: { ...io, stdout: screen.stream, stderr: screen.stream }, transcript: screen.text };
}

/** The bar states drawn so far, oldest first. */
function frames(transcript: string): string[] {
  return transcript.split(ERASE_LINE).filter((frame) => frame !== '');
}

describe('createProgress when stderr is not a colour TTY', () => {
  it('writes nothing at all, and still prints lines through withLine', () => {
    const test = createTestIO({ isTTY: false, color: false });
    const progress = createProgress(test.io, { total: 3, label: 'closed' });
    progress.tick(true);
    progress.withLine(() => test.io.stdout.write('✓ #1 closed\n'));
    progress.tick(false);
    progress.done();
    expect(test.stderr()).toBe('');
    expect(test.stdout()).toBe('✓ #1 closed\n');
  });

  it('writes nothing on a TTY with colour disabled', () => {
    const test = createTestIO({ isTTY: true, color: false });
    const progress = createProgress(test.io, { total: 2, label: 'closed' });
    progress.tick(true);
    progress.done();
    expect(test.stderr()).toBe('');
  });
});

describe('createProgress on a terminal', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-03-10T09:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('draws the bar on stderr only, never on stdout', () => {
    const test = createTestIO({ isTTY: true, color: true });
    const progress = createProgress(test.io, { total: 4, label: 'closed' });
    expect(test.stderr()).toBe(`${ERASE_LINE}closed [${'░'.repeat(30)}] 0/4`);
    progress.done();
    expect(test.stdout()).toBe('');
  });

  it('shows done/total, failures, rate and ETA', () => {
    const screen = terminal();
    const progress = createProgress(screen.io, { total: 8, label: 'closed' });
    for (const ok of [true, false, true, true]) {
      vi.advanceTimersByTime(1000);
      progress.tick(ok);
    }
    expect(frames(screen.transcript()).at(-1)).toBe(`closed [${'█'.repeat(15)}${'░'.repeat(15)}] 4/8 · 1 failed · 1.0/s · ETA 4s`);
  });

  it('redraws at most once per 50 ms of the clock however many items finish, and draws the final state', () => {
    const screen = terminal();
    const total = 1000;
    const progress = createProgress(screen.io, { total, label: 'closed' });
    // 1000 items over 999 ms of the clock: one finishing every millisecond.
    for (let index = 0; index < total; index += 1) {
      if (index > 0) vi.advanceTimersByTime(1);
      progress.tick(true);
    }
    const drawn = frames(screen.transcript());
    // The first frame (0/1000) at start, then one per 50 ms at most, and the final state.
    expect(drawn.length).toBeLessThanOrEqual(1 + Math.ceil(999 / 50) + 1);
    expect(drawn.length).toBeGreaterThanOrEqual(Math.floor(999 / 50));
    expect(drawn.at(-1)).toMatch(/^closed \[█{30}\] 1000\/1000 · /);
    progress.done();
  });

  it('draws a burst of items once the 50 ms are up, and the last item at once', () => {
    const screen = terminal();
    const progress = createProgress(screen.io, { total: 50, label: 'picked up' });
    for (let index = 0; index < 49; index += 1) progress.tick(true);
    expect(frames(screen.transcript())).toEqual([`picked up [${'░'.repeat(30)}] 0/50`]);
    vi.advanceTimersByTime(49);
    expect(frames(screen.transcript())).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(frames(screen.transcript()).at(-1)).toMatch(/^picked up \[█{29}░\] 49\/50 · /);
    progress.tick(true);
    const all = frames(screen.transcript());
    expect(all).toHaveLength(3);
    expect(all.at(-1)).toMatch(/^picked up \[█{30}\] 50\/50 · /);
    expect(all.at(-1)).not.toContain('ETA');
  });

  it('puts the bar back after each line as it was last drawn, without drawing it anew', () => {
    const screen = terminal();
    const progress = createProgress(screen.io, { total: 100, label: 'closed' });
    const first = frames(screen.transcript());
    for (let index = 1; index <= 20; index += 1) {
      progress.tick(true);
      progress.withLine(() => screen.io.stdout.write(`✓ #${index} closed\n`));
    }
    // Within the same 50 ms every line is followed by the same frame: the one drawn at start.
    const bars = frames(screen.transcript().replace(/✓ #\d+ closed\n/g, ''));
    expect(new Set(bars)).toEqual(new Set(first));
    vi.advanceTimersByTime(50);
    expect(frames(screen.transcript()).at(-1)).toMatch(/ 20\/100 · /);
    progress.done();
  });

  it('lifts the bar off the line before a line is printed and puts it back after', () => {
    const screen = terminal();
    const progress = createProgress(screen.io, { total: 2, label: 'closed' });
    vi.advanceTimersByTime(50);
    progress.tick(true);
    progress.withLine(() => screen.io.stdout.write('✓ #1 closed\n'));
    const transcript = screen.transcript();
    const lineAt = transcript.indexOf('✓ #1 closed\n');
    expect(transcript.slice(lineAt - ERASE_LINE.length, lineAt)).toBe(ERASE_LINE);
    expect(transcript.slice(lineAt + '✓ #1 closed\n'.length)).toMatch(/^\r\u001b\[2Kclosed \[.*\] 1\/2/);
  });

  it('leaves a clean line when done and never draws again', () => {
    const screen = terminal();
    const progress = createProgress(screen.io, { total: 3, label: 'deleted' });
    progress.tick(true);
    progress.tick(true);
    progress.done();
    const atDone = screen.transcript();
    expect(atDone.endsWith(ERASE_LINE)).toBe(true);
    vi.advanceTimersByTime(1000);
    progress.tick(true);
    progress.withLine(() => screen.io.stderr.write('error: interrupted\n'));
    expect(screen.transcript()).toBe(`${atDone}error: interrupted\n`);
  });

  it('fits a narrow terminal without wrapping, dropping the bar first', () => {
    const screen = terminal(30);
    const progress = createProgress(screen.io, { total: 1000, label: 'resolved' });
    vi.advanceTimersByTime(3000);
    progress.tick(false);
    const drawn = frames(screen.transcript());
    expect(drawn.at(-1)).toBe('resolved 1/1000 · 1 failed');
    for (const frame of drawn) expect(frame.length).toBeLessThanOrEqual(29);
  });
});
