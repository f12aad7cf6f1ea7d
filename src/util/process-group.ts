// Ending a child started in a session of its own (spawn's `detached`: a new session, so a process
// group of its own too), with everything it started: a shell command's own children share its
// group and would outlive it otherwise.
import type { ChildProcess } from 'node:child_process';

export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already, or there are no groups (Windows): the child alone.
    child.kill(signal);
  }
}
