// Whether a process a test started still runs, reading Linux's /proc: a zombie (ended, not yet
// reaped by a parent that may never reap it, as in a container) does not run.
import { readFileSync } from 'node:fs';

function processRuns(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * Whether process `pid` has ended within `withinMs`: a signal sent to a process group is taken by
 * each of its processes when the system next runs it, which on a loaded machine can come after
 * the process a test awaited (the group's shell) has ended.
 */
export async function processEnds(pid: number, withinMs = 5_000): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (processRuns(pid)) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}
