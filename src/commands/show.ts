import type { Command } from 'commander';
import type { CommandHost } from '../cli.js';
import type { Context } from '../context.js';
import { addFieldsOption } from '../output/flags.js';
import { parseTicketId } from '../util/ids.js';

export interface ShowOptions {
  id: string;
  markRead: boolean;
}

export function register(program: Command, host: CommandHost): void {
  const command = program
    .command('show')
    .alias('view')
    .description('Show a ticket: details, description, resolution, conversation and attachments')
    .argument('<id>', 'ticket ID')
    .option('--mark-read', 'also mark the ticket as read');
  addFieldsOption(command)
    .addHelpText(
      'after',
      `\nExamples:\n  $ tkt show 42\n  $ tkt view 42 --mark-read\n  $ tkt show 42 --fields id,title,dueDate\n  $ tkt show 42 --query status.status --raw`,
    )
    .action(host.action((args, opts, ctx) => run({ id: args[0], markRead: opts.markRead === true }, ctx)));
}

export async function run(options: ShowOptions, ctx: Context): Promise<void> {
  const id = parseTicketId(options.id);
  const api = await ctx.api();
  const ticket = (await api.getTicket(id)).body;
  await ctx.output.document(ticket, {
    human: async () => {
      const [{ renderTicketDetail }, { createLookups }] = await Promise.all([import('../tickets/detail.js'), import('../lookups/index.js')]);
      return renderTicketDetail(ticket, { lookups: createLookups(ctx), now: ctx.now(), color: ctx.io.stdoutColor });
    },
  });
  // After the ticket is printed: reading it is what marks it read.
  if (options.markRead) await api.markRead(id);
}
