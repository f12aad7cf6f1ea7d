// my_queue against a service whose list items differ from the sandbox's (the spec does not give a
// list item's members): the counts and the urgent tickets of tkt status, read from the details
// where the items leave a member out, and an error rather than a ticket twice where the items'
// ID member has a name tkt does not know.
import { describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { keepOnly, startReshapingServer, useHarness } from '../helpers/sandbox-state.js';
import { inProcessMcp } from './in-process.js';

let h: Harness;
useHarness({ login: 'tech' }, (harness) => (h = harness));

interface Queue {
  counts: Record<string, number>;
  urgent: { id: number; due?: string; priority?: string }[];
}

/** my_queue's result as tech, through a service whose list items are as `reshape` makes them (none: the sandbox's). */
async function myQueue(reshape?: (item: Record<string, unknown>) => Record<string, unknown>) {
  const server = reshape === undefined ? undefined : await startReshapingServer(h, reshape);
  const env: Record<string, string> = server === undefined ? {} : { TKT_URL: server.url, TKT_TOKEN: h.sandbox.issueToken('tech') };
  const mcp = await inProcessMcp(h, ['my_queue'], env);
  try {
    mcp.send({ id: 1, method: 'tools/call', params: { name: 'my_queue', arguments: {} } });
    return (await mcp.response(1)).result as { isError?: boolean; structuredContent?: Queue; content: { text: string }[] };
  } finally {
    mcp.endInput();
    await mcp.served;
    await server?.close();
  }
}

describe("my_queue over list items that differ from the sandbox's", () => {
  it('counts and orders from the details when the items leave out the due date and the assignee', async () => {
    const full = await myQueue();
    const lean = await myQueue(keepOnly('ticketId', 'subject', 'status'));
    expect(lean.isError).toBeFalsy();
    expect(full.structuredContent!.counts.dueToday).toBeGreaterThan(0);
    expect(lean.structuredContent!.counts).toEqual(full.structuredContent!.counts);
    // The urgent tickets as their details say them: due dates and priorities, not left out.
    expect(lean.structuredContent!.urgent).toEqual(full.structuredContent!.urgent);
    expect(lean.structuredContent!.urgent.some((ticket) => ticket.due !== undefined)).toBe(true);
  });

  it('is an error naming the members of an item whose ID tkt cannot find, not a ticket listed twice', async () => {
    const result = await myQueue(({ ticketId, ...rest }) => ({ TicketNo: ticketId, ...rest }));
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^error: a ticket in the service's list has no ID tkt knows: its members are TicketNo, subject, status, /);
  });
});
