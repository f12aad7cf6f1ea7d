// Waiting a while. node:timers/promises is taken when a wait first comes, not imported: few runs
// ever wait (a retry, a lock held by another tkt), and its load cost every run 0.1 MB of peak
// memory on Node 24, the margin of `tkt show`'s (README, Performance).

/** Resolves after `ms`, or as soon as `signal` aborts (the caller looks at it); never rejects. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return process
    .getBuiltinModule('node:timers/promises')
    .setTimeout(ms, undefined, signal === undefined ? undefined : { signal })
    .catch(() => {});
}
