// Whether a process still runs: for files a process left behind (a lock, a temporary file)
// that may be taken over once their owner is gone.

export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
