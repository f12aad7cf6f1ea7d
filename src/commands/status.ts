// tkt status: the caller's queue at a glance (contract section 10): how many of their tickets
// are open, overdue, due today, on hold, pending and escalated, how many in their groups have
// nobody assigned, then the most urgent few. Each count is the service's own view, walked whole.
import type { CommandHost, Program } from '../cli.js';
import type { Context } from '../context.js';
import { fieldsOption } from '../output/flags.js';

export type StatusOptions = Record<string, never>;

// Counted views, in the order they are shown (contract section 10), with their list types.
const COUNTS = [
  ['open', 'MyOpenTickets', 'open'],
  ['overdue', 'MyOverdueTickets', 'overdue'],
  ['dueToday', 'MyTicketsDueToday', 'due today'],
  ['onHold', 'MyTicketsOnhold', 'on hold'],
  ['pending', 'MyPendingTickets', 'pending'],
  ['escalated', 'MyEscalated', 'escalated'],
] as const;
const URGENT_SHOWN = 5;

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('status')
    .description('Your queue at a glance: counts of your tickets by state, then the most urgent')
    .addOption(fieldsOption())
    .addHelpText(
      'after',
      `
Counts: open, overdue, due today, on hold, pending and escalated tickets of yours (the service's
my-* views), and unassigned tickets in your groups that are not resolved or closed; then your
most urgent open tickets (overdue first, then by due date). --json gives {"counts": {...},
"urgent": [...]}; -q the IDs of the most urgent, one per line.

Examples:
  $ tkt status
  $ tkt status --json --query counts.overdue`,
    );
  host.action(command, (_args, _opts, ctx) => run({}, ctx));
}

export async function run(_options: StatusOptions, ctx: Context): Promise<void> {
  const [{ viewTickets }, { isSettled, summarizeTicket }] = await Promise.all([import('../tickets/pages.js'), import('../tickets/summary.js')]);
  const api = await ctx.api();
  const all = (listType: string) => viewTickets(api, listType, ctx.signal);
  const [lists, groups] = await Promise.all([Promise.all(COUNTS.map(([, listType]) => all(listType))), all('AllMyGroups')]);
  const counts: Record<string, number> = {};
  COUNTS.forEach(([key], index) => (counts[key] = lists[index]!.length));
  // A resolved or closed ticket nobody was assigned to is no one's work.
  counts.unassignedInMyGroups = groups.filter((item) => summarizeTicket(item).assignee === undefined && !isSettled(item)).length;

  const now = ctx.now().getTime();
  const dueOf = (item: unknown) => summarizeTicket(item).due?.getTime() ?? Number.POSITIVE_INFINITY;
  // Overdue first, then the nearest due date; tickets without one last.
  const urgent = [...lists[0]!].sort((a, b) => Number(dueOf(b) < now) - Number(dueOf(a) < now) || dueOf(a) - dueOf(b)).slice(0, URGENT_SHOWN);

  await ctx.output.document(
    { counts, urgent },
    {
      human: () => humanStatus(counts, urgent, ctx),
      // The essentials of a queue: the tickets to open next, as `list -q` gives IDs.
      quiet: () => urgent.map((item) => `${summarizeTicket(item).id ?? ''}\n`).join(''),
    },
  );
}

// The urgent tickets sit under the counts, indented as they are.
const INDENT = '  ';

async function humanStatus(counts: Record<string, number>, urgent: unknown[], ctx: Context): Promise<string> {
  const [{ summarizeTicket }, { formatDue }, { renderTable }, { createStyle }] = await Promise.all([
    import('../tickets/summary.js'),
    import('../output/time.js'),
    import('../output/table.js'),
    import('../output/style.js'),
  ]);
  const style = createStyle(ctx.io.stdoutColor);
  const rows: [string, number][] = [...COUNTS.map(([key, , label]): [string, number] => [label, counts[key]!]), ['unassigned in your groups', counts.unassignedInMyGroups!]];
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = [style.bold('Your queue'), ...rows.map(([label, count]) => `${INDENT}${label.padEnd(width)}  ${String(count).padStart(4)}`)];
  if (urgent.length > 0) {
    const tickets = urgent.map((item) => {
      const ticket = summarizeTicket(item);
      const due = formatDue(ticket.due, ctx.now(), ticket.overdue);
      return { id: ticket.id, due: due.text === '' ? 'no due date' : due.text, overdue: due.overdue, priority: ticket.priority, status: ticket.status, title: ticket.title };
    });
    const table = renderTable(
      [
        { header: 'ID', key: 'id', align: 'right' },
        { header: 'DUE', key: 'due', paint: (text, row) => (row.overdue === true ? style.red(text) : text) },
        { header: 'PRIORITY', key: 'priority' },
        { header: 'STATUS', key: 'status' },
        { header: 'TITLE', key: 'title', shrink: true },
      ],
      tickets,
      { width: ctx.io.columns - INDENT.length, color: ctx.io.stdoutColor },
    );
    lines.push('', style.bold('Most urgent'), ...table.trimEnd().split('\n').map((line) => INDENT + line));
  }
  return `${lines.join('\n')}\n`;
}
