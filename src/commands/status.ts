// tkt status: the caller's queue at a glance (docs/cli.md section 10): how many of their tickets
// are open, overdue, due today, on hold, pending and escalated, how many in their groups have
// nobody assigned, then the most urgent few. Each count is the service's own view, walked whole,
// but due today, which is the user's local day (listing/queue.ts).
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { fieldsOption } from '../output/flags.js';
import { writeText } from '../output/write.js';

export type StatusOptions = Record<string, never>;

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('status')
    .description('Your queue at a glance: counts of your tickets by state, then the most urgent')
    .addOption(fieldsOption(program))
    .addHelpText(
      'after',
      `
Counts: open, overdue, due today, on hold, pending and escalated tickets of yours (the service's
my-* views; due today by your local day, as --due-before reads a date, not the service's day),
and unassigned tickets in your groups that are not resolved or closed; then your
most urgent tickets: every overdue one first (on hold or pending too), then the ones being
worked (open, in progress, escalated) by due date, five in all; overdue ones beyond the first
five are counted under the table. --json gives
{"counts": {...}, "urgent": [...]}; -q the IDs of the most urgent, one per line.

Examples:
  $ tkt status
  $ tkt status --json --query counts.overdue`,
    );
  host.action(command, (_args, _opts, ctx) => run({}, ctx));
}

export async function run(_options: StatusOptions, ctx: Context): Promise<void> {
  const { readQueue, renderQueue, urgentIds } = await import('../listing/queue.js');
  const reading = await readQueue(await ctx.api(), ctx.signal, ctx.now());
  let leftOut = '';
  await ctx.output.document(reading.queue, {
    human: async () => {
      const shown = await renderQueue(reading, ctx);
      leftOut = shown.leftOut;
      return shown.text;
    },
    // The essentials of a queue: the tickets to open next, as `list -q` gives IDs.
    quiet: () =>
      urgentIds(reading)
        .map((id) => `${id}\n`)
        .join(''),
  });
  // Under the table, on stderr: the columns a narrow terminal left out.
  if (leftOut !== '') await writeText(ctx.io.stderr, leftOut);
}
