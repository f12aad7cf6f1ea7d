import { describe, expect, it } from 'vitest';
import { WalkChanges, listPageOf, walkPages, type PageSource } from '../../src/listing/pages.js';

/** A source of `total` items whose pages answer in reverse order of asking (later pages first). */
function reversedSource(total: number, pageSize: number) {
  const asked: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const source: PageSource = {
    firstPage: 1,
    pageSize,
    async fetch(page) {
      asked.push(page);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      // Page 1 waits longest, so every later page in the window has answered before it.
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, 40 - page * 5)));
      inFlight -= 1;
      const first = (page - 1) * pageSize;
      return { items: Array.from({ length: Math.max(0, Math.min(pageSize, total - first)) }, (_, i) => ({ id: first + i + 1 })), total: undefined };
    },
  };
  return { source, asked, maxInFlight: () => maxInFlight };
}

async function collect(source: PageSource, concurrency: number): Promise<unknown[][]> {
  const pages: unknown[][] = [];
  for await (const items of walkPages(source, { signal: new AbortController().signal, concurrency })) pages.push(items);
  return pages;
}

describe('walkPages', () => {
  it('keeps several pages in flight yet yields them in order', async () => {
    const { source, maxInFlight } = reversedSource(95, 10);
    const pages = await collect(source, 4);
    expect(maxInFlight()).toBe(4);
    expect(pages.flat()).toEqual(Array.from({ length: 95 }, (_, i) => ({ id: i + 1 })));
    expect(pages.map((page) => page.length)).toEqual([10, 10, 10, 10, 10, 10, 10, 10, 10, 5]);
  });

  it('stops at the first short page and asks for nothing past the window it had open', async () => {
    const { source, asked } = reversedSource(25, 10);
    const pages = await collect(source, 3);
    expect(pages.map((page) => page.length)).toEqual([10, 10, 5]);
    // Page 1, then 2 and 3 (window 2), then 4 and 5 (window 3): never 6.
    expect([...asked].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
  });

  it('stops at an empty page, and measures "short" against a first page the service capped', async () => {
    const capped: PageSource = {
      firstPage: 1,
      pageSize: 100,
      // The service gives at most 10 whatever is asked: 30 items in three full pages.
      fetch: async (page) => ({ items: Array.from({ length: page <= 3 ? 10 : 0 }, (_, i) => ({ id: page * 100 + i })), total: undefined }),
    };
    expect((await collect(capped, 2)).map((page) => page.length)).toEqual([10, 10, 10]);
  });

  it('refuses a service that answers every page with the same items', async () => {
    const stuck: PageSource = { firstPage: 1, pageSize: 2, fetch: async () => ({ items: [{ id: 1 }, { id: 2 }], total: undefined }) };
    await expect(collect(stuck, 3)).rejects.toThrow('the service returned page 1 again for page 2');
  });

  it('opens the window one page at a time, and stops asking when the consumer stops', async () => {
    const { source, asked } = reversedSource(1000, 10);
    for await (const items of walkPages(source, { signal: new AbortController().signal, concurrency: 4 })) {
      expect(items).toHaveLength(10);
      expect(asked).toEqual([1]);
      break;
    }
    expect(asked).toEqual([1]);
    const { source: onePage, asked: askedOnce } = reversedSource(7, 10);
    expect((await collect(onePage, 4)).flat()).toHaveLength(7);
    // A first page smaller than asked may be a service's cap: one more request tells.
    expect(askedOnce).toEqual([1, 2]);
  });

  // A review saw `list --all` of a 4-ticket view send page 2 though the service counted 4 (X-Total-Count).
  it("takes a first page smaller than asked for the whole list when it holds the service's count: one request", async () => {
    const asked: number[] = [];
    const counted: PageSource = {
      firstPage: 1,
      pageSize: 100,
      fetch: async (page) => (asked.push(page), { items: page === 1 ? [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }] : [], total: 4 }),
    };
    const changes = new WalkChanges();
    const pages: unknown[][] = [];
    for await (const items of walkPages(counted, { signal: new AbortController().signal, concurrency: 4, changes })) pages.push(items);
    expect(pages.flat()).toHaveLength(4);
    expect(asked).toEqual([1]);
    expect(changes.whole).toBe(true);
    // A capped first page that holds less than the count is not the whole list: the walk goes on.
    const cappedAsked: number[] = [];
    const capped: PageSource = {
      firstPage: 1,
      pageSize: 100,
      fetch: async (page) => (cappedAsked.push(page), { items: page <= 2 ? [{ id: page * 10 + 1 }, { id: page * 10 + 2 }] : [], total: 4 }),
    };
    expect((await collect(capped, 4)).flat()).toHaveLength(4);
    expect(cappedAsked.slice(0, 3)).toEqual([1, 2, 3]);
  });
});

describe('walkPages over a list that changes', () => {
  /** Pages of 2 from `pages`, each with its count of the whole list. */
  const scripted = (pages: { ids: number[]; total?: number }[]): PageSource => ({
    firstPage: 1,
    pageSize: 2,
    fetch: async (page) => ({ items: (pages[page - 1]?.ids ?? []).map((id) => ({ ticketId: id })), total: pages[page - 1]?.total }),
  });
  const walk = async (source: PageSource) => {
    const changes = new WalkChanges();
    const pages: unknown[][] = [];
    for await (const items of walkPages(source, { signal: new AbortController().signal, concurrency: 2, changes })) pages.push(items);
    return { ids: pages.flat().map((item) => (item as { ticketId: number }).ticketId), changes };
  };

  it('gives a ticket once, counting the repeats left out', async () => {
    const { ids, changes } = await walk(scripted([{ ids: [9, 8] }, { ids: [8, 7] }, { ids: [6] }]));
    expect(ids).toEqual([9, 8, 7, 6]);
    expect([changes.repeats, changes.listed, changes.whole]).toEqual([1, 4, true]);
    expect(changes.failure()?.message).toBe('the desk changed while listing: tickets may be missing');
  });

  it("fails on a count that moved, or on a whole walk that listed fewer than the count; not on a still list's", async () => {
    const moved = await walk(
      scripted([
        { ids: [9, 8], total: 5 },
        { ids: [6, 5], total: 4 },
        { ids: [], total: 4 },
      ]),
    );
    expect(moved.changes.failure()?.details).toEqual(['the service counted 5 tickets at the first page, 4 at the last']);
    const fewer = await walk(
      scripted([
        { ids: [9, 8], total: 4 },
        { ids: [7], total: 4 },
      ]),
    );
    expect(fewer.changes.failure()?.details).toEqual(['the service counts 4 tickets; 3 listed']);
    const still = await walk(
      scripted([
        { ids: [9, 8], total: 3 },
        { ids: [7], total: 3 },
      ]),
    );
    expect(still.changes.failure()).toBeUndefined();
  });

  it('reads the count from X-Total-Count, and none from a header that is not a number', () => {
    const response = (headers: Record<string, string>) => ({ status: 200, headers, body: [{ ticketId: 1 }], url: 'http://127.0.0.1/api/TicketsApi' });
    expect(listPageOf(response({ 'x-total-count': '42' }))).toEqual({ items: [{ ticketId: 1 }], total: 42 });
    expect(listPageOf(response({ 'x-total-count': 'many' })).total).toBeUndefined();
    expect(listPageOf(response({})).total).toBeUndefined();
  });
});
