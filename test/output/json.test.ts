import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createJsonArrayWriter, writeJson, writeJsonLine } from '../../src/output/json.js';
import { createCollector } from '../helpers/io.js';
import { OutputClosedError } from '../../src/errors.js';

const tickets = [
  { id: 1, title: 'Printer "jammed"', tags: ['hw', 'floor 2'] },
  { Id: 2, Title: 'VPN\ndown', nested: { deep: [1, { a: null }] } },
  { id: 3, title: 'émoji 🖨️' },
];

describe('writeJson', () => {
  it('prints one pretty JSON document with a trailing newline', async () => {
    const out = createCollector();
    await writeJson(out.stream, tickets[0]);
    expect(out.text()).toBe(JSON.stringify(tickets[0], null, 2) + '\n');
    expect(JSON.parse(out.text())).toEqual(tickets[0]);
  });

  it('prints null for an absent body, never the word undefined', async () => {
    const out = createCollector();
    await writeJson(out.stream, undefined);
    expect(out.text()).toBe('null\n');
  });
});

describe('writeJsonLine', () => {
  it('prints one compact object per line', async () => {
    const out = createCollector();
    await writeJsonLine(out.stream, { id: 12, ok: true, status: 204 });
    await writeJsonLine(out.stream, { id: 13, ok: false, status: 404, error: 'not\nfound' });
    const lines = out.text().split('\n');
    expect(lines).toEqual(['{"id":12,"ok":true,"status":204}', '{"id":13,"ok":false,"status":404,"error":"not\\nfound"}', '']);
  });
});

describe('createJsonArrayWriter', () => {
  it('streams exactly what writeJson would print for the whole array', async () => {
    const streamed = createCollector();
    const writer = createJsonArrayWriter(streamed.stream);
    for (const ticket of tickets) await writer.push(ticket);
    await writer.end();

    const whole = createCollector();
    await writeJson(whole.stream, tickets);
    expect(streamed.text()).toBe(whole.text());
    expect(JSON.parse(streamed.text())).toEqual(tickets);
  });

  it('streams the same when items come a page at a time', async () => {
    const items = [...tickets, { nested: { deep: [1, { x: 'a\u001bb' }] } }, null, ...tickets];
    const streamed = createCollector();
    const writer = createJsonArrayWriter(streamed.stream);
    await writer.push(...items.slice(0, 2));
    await writer.push(...items.slice(2, 3));
    await writer.push(...items.slice(3));
    await writer.end();

    const whole = createCollector();
    await writeJson(whole.stream, items);
    expect(streamed.text()).toBe(whole.text());
  });

  it('prints [] when there are no items', async () => {
    const out = createCollector();
    const writer = createJsonArrayWriter(out.stream);
    await writer.end();
    expect(out.text()).toBe('[]\n');
  });

  it('writes items as they come, before the array is closed', async () => {
    const out = createCollector();
    const writer = createJsonArrayWriter(out.stream);
    await writer.push({ id: 1 });
    expect(out.text()).toBe('[\n  {\n    "id": 1\n  }');
  });

  it('waits for drain when the reader is slow', async () => {
    const received: string[] = [];
    const pending: (() => void)[] = [];
    // A reader that takes each chunk only when the test lets it.
    const slow = new Writable({
      highWaterMark: 4,
      write(chunk: Buffer, _encoding, callback) {
        received.push(chunk.toString());
        pending.push(callback);
      },
    });
    const writer = createJsonArrayWriter(slow);
    let pushed = false;
    const push = writer.push({ id: 1, title: 'a long enough title to pass the high water mark' }).then(() => (pushed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(pushed).toBe(false);

    pending.shift()!();
    await push;
    expect(pushed).toBe(true);
    expect(received.join('')).toContain('"id": 1');
  });

  it('rejects when the stream fails (e.g. the pipe reader went away)', async () => {
    const broken = new Writable({
      highWaterMark: 1,
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const writer = createJsonArrayWriter(broken);
    // The command then stops and main.ts ends the run quietly (docs/cli.md section 8).
    await expect(writer.push({ id: 1 })).rejects.toThrow(OutputClosedError);
  });

  it('rejects with the failure itself when it is not a closed pipe (a full disk)', async () => {
    const full = new Writable({
      highWaterMark: 1,
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
      },
    });
    await expect(createJsonArrayWriter(full).push({ id: 1 })).rejects.toThrow('no space left');
  });
});
