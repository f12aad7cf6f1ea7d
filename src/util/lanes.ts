// A few requests at once over a list (detail reads of tickets): `lanes` workers take the items in
// order, each awaiting its own before it takes the next; the first failure fails the whole.

export async function inLanes<T>(items: readonly T[], lanes: number, each: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const lane = async (): Promise<void> => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await each(item);
  };
  await Promise.all(Array.from({ length: Math.min(lanes, queue.length) }, lane));
}
