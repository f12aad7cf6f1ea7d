// The per-ticket queue of `tkt mcp`'s write tools: one key's tasks one after another in the order
// they came, whatever the one before did (failed included); other keys' at once; nothing kept.
import { describe, expect, it } from 'vitest';
import { KeyedQueue } from '../../src/mcp/ticket-queue.js';

/** A task the test finishes: `started` once it runs, then `finish` or `fail` it. */
function task(log: string[], name: string) {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const run = () => {
    log.push(`start ${name}`);
    started();
    return new Promise<string>((resolve, reject) => {
      finish = () => resolve(name);
      fail = reject;
    });
  };
  return { run, running, finish: () => finish(), fail: (error: Error) => fail(error) };
}

describe('KeyedQueue', () => {
  it('runs one key’s tasks one after another, in order, also after a failure; another key’s at once', async () => {
    const queue = new KeyedQueue<number>();
    const log: string[] = [];
    const [first, second, third, other] = ['first', 'second', 'third', 'other'].map((name) => task(log, name));
    const results = [queue.run(1, first!.run), queue.run(1, second!.run), queue.run(1, third!.run), queue.run(2, other!.run)];
    await Promise.all([first!.running, other!.running]);
    expect(log).toEqual(['start first', 'start other']);
    expect(queue.size).toBe(2);

    first!.fail(new Error('refused'));
    await expect(results[0]).rejects.toThrow('refused');
    await second!.running;
    expect(log).toEqual(['start first', 'start other', 'start second']);
    second!.finish();
    await third!.running;
    third!.finish();
    other!.finish();
    expect(await Promise.all(results.slice(1))).toEqual(['second', 'third', 'other']);
    expect(queue.size).toBe(0);
  });

  it('forgets a key once its last task is done, also when a task throws at once', async () => {
    const queue = new KeyedQueue<string>();
    await expect(
      queue.run('a', () => {
        throw new Error('bad');
      }),
    ).rejects.toThrow('bad');
    expect(await queue.run('b', () => Promise.resolve(2))).toBe(2);
    expect(queue.size).toBe(0);
  });

  it('settles a key when the tasks queued on it so far are done (a failed one included), and every key without one', async () => {
    const queue = new KeyedQueue<number>();
    const log: string[] = [];
    const [first, other] = ['first', 'other'].map((name) => task(log, name));
    const results = [queue.run(1, first!.run), queue.run(2, other!.run)];
    const one = queue.settled(1).then(() => log.push('settled 1'));
    const all = queue.settled().then(() => log.push('settled all'));
    await Promise.all([first!.running, other!.running]);
    first!.fail(new Error('refused'));
    await expect(results[0]).rejects.toThrow('refused');
    await one;
    expect(log).toEqual(['start first', 'start other', 'settled 1']);
    other!.finish();
    await all;
    expect(log.at(-1)).toBe('settled all');
    await queue.settled(3);
  });
});
