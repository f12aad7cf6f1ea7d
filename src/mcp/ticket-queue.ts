// The write tools of one ticket, one after another (README, Assistants): a change reads the ticket
// and sends it back whole (src/bulk/change.ts), so two at once on one ticket would each write back
// what the other did not see. Calls on different tickets still run at once. A read waits for the
// writes queued before it (`settled`), one the client cancelled included while its request is
// out: it answers the ticket as they left it, not as it was before them.

/** Runs tasks one after another per key, in the order they came; keys with nothing to run are forgotten. */
export class KeyedQueue<Key> {
  /** Per key, the end of the last task queued: settles, never rejects, when that task is done. */
  readonly #tails = new Map<Key, Promise<void>>();

  /** Keys with a task running or waiting. */
  get size(): number {
    return this.#tails.size;
  }

  /** Settles when the tasks of `key` queued so far are done; every key's when `key` is undefined. */
  async settled(key?: Key): Promise<void> {
    await (key === undefined ? Promise.all(this.#tails.values()) : this.#tails.get(key));
  }

  async run<T>(key: Key, task: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key);
    let done!: () => void;
    const tail = new Promise<void>((resolve) => (done = resolve));
    this.#tails.set(key, tail);
    try {
      await before;
      return await task();
    } finally {
      done();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
