// my_queue: `tkt status` for an assistant: the counts of the caller's queue and the most urgent
// tickets, read by the same code (src/listing/queue.ts).
import { z } from 'zod';
import { readQueue } from '../listing/queue.js';
import { summarize, summaryLine, ticketSummarySchema } from './summary.js';
import { FENCE_NOTE } from './text.js';
import { READ_ONLY, defineTool } from './tool.js';

export const myQueue = defineTool({
  name: 'my_queue',
  title: 'My queue',
  description: 'Counts of your open, overdue, due-today, on-hold, pending and escalated tickets, unassigned ones in your groups, and your most urgent tickets.',
  input: {},
  output: { counts: z.record(z.string(), z.number()), urgent: z.array(ticketSummarySchema) },
  annotations: READ_ONLY,
  async call(_args, { ctx }) {
    const now = ctx.now();
    const { queue, urgent: urgentTickets } = await readQueue(await ctx.api(), ctx.signal, now);
    // As tkt status shows them: from the detail where the list item left out their due date.
    const urgent = urgentTickets.map((ticket) => summarize(ticket, now));
    const counts = Object.entries(queue.counts)
      .map(([name, count]) => `${name} ${count}`)
      .join(', ');
    const lines = [`Your queue: ${counts}.`, ...(urgent.length === 0 ? [] : [FENCE_NOTE, 'Most urgent:', ...urgent.map(summaryLine)])];
    return { structured: { counts: queue.counts, urgent }, text: lines.join('\n') };
  },
});
