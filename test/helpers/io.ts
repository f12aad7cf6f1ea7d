// An IO over in-memory streams: stdin from a string, stdout/stderr collected as text.
import { PassThrough, Writable } from 'node:stream';
import type { IO } from '../../src/output/io.js';

export interface TestIOOptions {
  stdin?: string;
  /** stdin, stdout and stderr all claim to be terminals. Default false. */
  isTTY?: boolean;
  /** The terminal's columns; default 80. */
  columns?: number;
  /** The terminal's rows; default 24. A terminal (isTTY) reports them unless `rowsReported` is false. */
  rows?: number;
  rowsReported?: boolean;
  /** Default: isTTY. */
  canPrompt?: boolean;
  /** Default false. */
  color?: boolean;
}

export interface TestIO {
  io: IO;
  stdout(): string;
  stderr(): string;
}

/** A Writable that keeps every byte, decoded as UTF-8 on read (multi-byte chars may span chunks). */
export function createCollector(): { stream: Writable; text(): string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      callback();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

export function createTestIO(options: TestIOOptions = {}): TestIO {
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? '');
  const stdout = createCollector();
  const stderr = createCollector();
  const isTTY = options.isTTY ?? false;
  return {
    io: {
      stdin,
      stdout: stdout.stream,
      stderr: stderr.stream,
      stdinIsTTY: isTTY,
      stdoutIsTTY: isTTY,
      stderrIsTTY: isTTY,
      color: options.color ?? false,
      animate: (options.color ?? false) && isTTY,
      stdoutColor: (options.color ?? false) && isTTY,
      cursorControl: true,
      screenReader: false,
      size: () => ({ columns: options.columns ?? 80, rows: options.rows ?? 24, rowsReported: options.rowsReported ?? isTTY }),
      canPrompt: options.canPrompt ?? isTTY,
    },
    stdout: stdout.text,
    stderr: stderr.text,
  };
}
