// Waiting on what a child process does (a file written, a line printed) without a fixed sleep:
// the condition is checked when something changes, within a generous bound.
import { watch as watchFolder } from 'node:fs';

// Generous: a loaded 2-core CI machine starts Node slowly; a pass never waits this long.
const BOUND_MS = 15_000;

/** Resolves once `holds()` is true, checked now and on each call `on` arranges (it returns how to stop them); rejects after BOUND_MS. */
export function until(what: string, holds: () => boolean, on: (check: () => void) => () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!holds()) return;
      finish();
      resolve();
    };
    const timer = setTimeout(() => {
      finish();
      reject(new Error(`no ${what} within ${BOUND_MS / 1000} s`));
    }, BOUND_MS);
    const stop = on(check);
    const finish = () => {
      clearTimeout(timer);
      stop();
    };
    check();
  });
}

/** For until: a check on each change in `folder`. */
export const onFolderChange = (folder: string) => (check: () => void) => {
  const watcher = watchFolder(folder, check);
  return () => watcher.close();
};

/** For until: a check on each 'data' that `emitter` emits (a child's output). */
export const onData = (emitter: NodeJS.EventEmitter) => (check: () => void) => {
  emitter.on('data', check);
  return () => void emitter.off('data', check);
};
