// Node hears that the reader of a piped stdout went away (`tkt watch | head -1`) only at the
// next write, and a command that waits, as a watch between polls, may write nothing for hours.
// poll() or select() on the pipe would tell at once (GNU `tail -f` watches its output so), but
// Node has neither for a descriptor, nor does a zero-length write fail on a pipe nobody reads.
// So a run that lasts hands the wait to a one-line perl script (perl is in every Debian and
// Ubuntu base system); without perl, the next write tells, as before.
import type { ChildProcess } from 'node:child_process';
import { fstatSync } from 'node:fs';

/** A run shorter than this never starts the helper: its own writes tell soon enough. */
const START_AFTER_MS = 1000;

// On Linux, select() finds the write end of a pipe "readable" once no reader is left (POLLERR).
// Every second the script also checks that tkt is alive: it never holds the pipe open for long
// after tkt, even one killed outright (a reader waiting for the end of its input would wait).
const WAIT_FOR_READER_TO_GO = 'my $tkt = getppid(); while (kill 0, $tkt) { my $r = ""; vec($r, 1, 1) = 1; exit 3 if select($r, undef, undef, 1) > 0 }';
const READER_GONE = 3;

/**
 * Calls `gone` once nobody reads the pipe on file descriptor `fd` any more, from a second into
 * the run on. Linux only, where select() tells so; on other systems, or when `fd` is not a pipe,
 * it never calls. Nothing of it keeps the process alive. Returns how to stop looking.
 */
export function whenPipeReaderGone(fd: number, gone: () => void): () => void {
  if (process.platform !== 'linux') return () => undefined;
  let stopped = false;
  let helper: ChildProcess | undefined;
  const start = async () => {
    if (!isPipe(fd)) return;
    const { spawn } = await import('node:child_process');
    if (stopped) return;
    helper = spawn('perl', ['-e', WAIT_FOR_READER_TO_GO], { stdio: ['ignore', fd, 'ignore'] });
    helper.on('error', () => undefined);
    helper.on('exit', (code) => {
      if (code === READER_GONE && !stopped) gone();
    });
    helper.unref();
  };
  const timer = setTimeout(() => void start(), START_AFTER_MS);
  timer.unref();
  return () => {
    stopped = true;
    clearTimeout(timer);
    helper?.kill();
  };
}

function isPipe(fd: number): boolean {
  try {
    return fstatSync(fd).isFIFO();
  } catch {
    return false;
  }
}
