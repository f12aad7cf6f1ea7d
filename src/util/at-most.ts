// Work over many items with a bound on how much runs at once: the service sees no more requests
// in flight than --concurrency allows, whatever the number of IDs.

/** Runs `work` for each item, at most `limit` at once; rejects with the first failure once every started item has settled. */
export async function forEachAtMost<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const failures: unknown[] = [];
  const lane = async (): Promise<void> => {
    while (next < items.length && failures.length === 0) {
      const item = items[next++]!;
      await work(item).catch((error: unknown) => failures.push(error));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failures.length > 0) throw failures[0];
}
