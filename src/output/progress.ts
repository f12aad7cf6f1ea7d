// A one-line progress bar for `ID...` commands, on stderr and only when animation is allowed
// (IO.animate: stderr is a TTY and colour not disabled). Elsewhere it writes nothing.
import type { IO, LiveLine } from './io.js';

export interface Progress {
  /** One more item finished. */
  tick(ok: boolean): void;
  /**
   * Runs `write` (which prints a whole line to stdout or stderr) with the bar lifted off the
   * screen, so the line does not land in the middle of the bar when both share a terminal.
   */
  withLine(write: () => void): void;
  /** Removes the bar for good; call it before the summary or error is printed. */
  done(): void;
}

export interface ProgressOptions {
  total: number;
  /** Says what is being counted, e.g. "closed" -> "closed [████░░░░] 4/10". */
  label: string;
}

// At most ~20 redraws a second (the bar, an upload's progress in waiting.ts): smooth enough, cheap
// over a slow SSH link, and a cost per second, not per item, however fast the items finish.
export const REDRAW_INTERVAL_MS = 50;
const ERASE_LINE = '\r\u001b[2K';
const MAX_BAR_WIDTH = 30;
const MIN_BAR_WIDTH = 5;

/**
 * For callers that decided against a bar (one ID, -q, a dry run), or where none is drawn: ticks
 * draw nothing, and a line printed lifts what is drawn in place (the wait notice of a request
 * still in flight) off the screen, and puts it back under the line.
 */
export function noBar(io: IO): Progress {
  return {
    tick() {},
    withLine(write) {
      const lifted = [...(io.liveLines ?? [])].filter((line) => line.erase());
      write();
      for (const line of lifted) line.restore();
    },
    done() {},
  };
}

/**
 * One line on stderr, drawn over and erased in place: the progress bar, the wait notice
 * (waiting.ts). Cut one column short of the terminal: writing into the last column makes some
 * terminals wrap, and a wrapped line can no longer be erased with a carriage return. One shows at
 * a time: a line drawn takes the place of another that shows (the bar, of the wait notice).
 */
export interface TransientLine extends LiveLine {
  /** Draws `text` in place of what the line showed. */
  draw(text: string): void;
}

export function transientLine(io: IO): TransientLine {
  let frame = '';
  let visible = false;
  const line: TransientLine = {
    draw(text) {
      frame = `${ERASE_LINE}${text.slice(0, Math.max(io.size().columns - 1, 0))}`;
      line.restore();
    },
    erase() {
      if (!visible) return false;
      io.stderr.write(ERASE_LINE);
      visible = false;
      io.liveLines?.delete(line);
      return true;
    },
    restore() {
      for (const other of io.liveLines ?? []) if (other !== line) other.erase();
      io.stderr.write(frame);
      visible = true;
      io.liveLines?.add(line);
    },
  };
  return line;
}

function formatDuration(seconds: number): string {
  const whole = Math.ceil(seconds);
  if (whole < 60) return `${whole}s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes}m${String(whole % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

function formatRate(perSecond: number): string {
  return perSecond < 10 ? perSecond.toFixed(1) : String(Math.round(perSecond));
}

export function createProgress(io: IO, options: ProgressOptions): Progress {
  if (!io.animate) return noBar(io);
  const { total, label } = options;
  const startedAt = Date.now();
  let finished = 0;
  let failed = 0;
  let closed = false;
  // The bar last drawn is put back as it is after each line, drawn anew only by draw().
  const bar = transientLine(io);
  let lastDrawAt = Number.NEGATIVE_INFINITY;
  let pendingDraw: ReturnType<typeof setTimeout> | undefined;

  function render(): string {
    const parts = [`${finished}/${total}`];
    if (failed > 0) parts.push(`${failed} failed`);
    const elapsedSeconds = (Date.now() - startedAt) / 1000;
    if (finished > 0 && elapsedSeconds > 0) {
      const rate = finished / elapsedSeconds;
      parts.push(`${formatRate(rate)}/s`);
      if (finished < total) parts.push(`ETA ${formatDuration((total - finished) / rate)}`);
    }
    // One column spare (TransientLine). The bar goes first, then ETA, rate...
    const room = io.size().columns - 1;
    let counts = parts.join(' · ');
    while (label.length + 1 + counts.length > room && parts.length > 1) {
      parts.pop();
      counts = parts.join(' · ');
    }
    const barWidth = Math.min(MAX_BAR_WIDTH, room - label.length - counts.length - 4);
    let line = `${label} ${counts}`;
    if (barWidth >= MIN_BAR_WIDTH) {
      const filled = total > 0 ? Math.round((finished / total) * barWidth) : barWidth;
      line = `${label} [${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)}] ${counts}`;
    }
    return line;
  }

  function cancelPendingDraw(): void {
    if (pendingDraw !== undefined) clearTimeout(pendingDraw);
    pendingDraw = undefined;
  }

  function draw(): void {
    cancelPendingDraw();
    bar.draw(render());
    lastDrawAt = Date.now();
  }

  draw();
  return {
    tick(ok) {
      finished += 1;
      if (!ok) failed += 1;
      if (closed) return;
      const wait = lastDrawAt + REDRAW_INTERVAL_MS - Date.now();
      // The last item is drawn at once: the final state is always seen.
      if (wait <= 0 || finished === total) {
        draw();
      } else if (pendingDraw === undefined) {
        pendingDraw = setTimeout(draw, wait);
        // A late redraw must never keep the process alive.
        pendingDraw.unref();
      }
    },
    withLine(write) {
      const wasVisible = bar.erase();
      write();
      if (wasVisible && !closed) bar.restore();
    },
    done() {
      closed = true;
      cancelPendingDraw();
      bar.erase();
    },
  };
}
