// Whether a process a test started still runs, reading Linux's /proc: a zombie (ended, not yet
// reaped by a parent that may never reap it, as in a container) does not run.
import { readFileSync } from 'node:fs';

export function processRuns(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
