import { describe, expect, it } from 'vitest';
import { inLanes } from '../../src/util/lanes.js';

describe('inLanes', () => {
  it('takes every item in order, never more than `lanes` at once', async () => {
    const started: number[] = [];
    let running = 0;
    let most = 0;
    await inLanes([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      started.push(item);
      most = Math.max(most, ++running);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
    });
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('fails with the first failure, and runs nothing for no items', async () => {
    await expect(inLanes([1, 2], 2, async (item) => (item === 2 ? Promise.reject(new Error('two')) : undefined))).rejects.toThrow('two');
    let ran = false;
    await inLanes([], 4, async () => void (ran = true));
    expect(ran).toBe(false);
  });
});
