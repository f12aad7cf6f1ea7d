import type { Command } from 'commander';
import type { CommandHost } from '../cli.js';
import type { Context } from '../context.js';
import { writeText } from '../output/write.js';

export interface ReadOptions {
  ids: string[];
  concurrency: string;
  dryRun: boolean;
}

export function register(program: Command, host: CommandHost): void {
  program
    .command('read')
    .description('Mark tickets as read')
    .argument('<id...>', 'ticket IDs, or - to read them from stdin (the first number on each line)')
    .option('--concurrency <n>', 'requests at once (1-32)', '4')
    .option('--dry-run', 'print what would be marked, send nothing')
    .addHelpText('after', '\nExamples:\n  $ tkt read 42\n  $ tkt read 42 43 44 --json\n  $ tkt list -q --view my-open-tickets | tkt read -')
    .action(
      host.action((args, opts, ctx) => run({ ids: args[0], concurrency: opts.concurrency, dryRun: opts.dryRun === true }, ctx), { graceful: true }),
    );
}

export async function run(options: ReadOptions, ctx: Context): Promise<void> {
  const [{ collectIds }, { runBulk, parseConcurrency }, { createBulkReporter }] = await Promise.all([
    import('../bulk/ids.js'),
    import('../bulk/runner.js'),
    import('../bulk/report.js'),
  ]);
  const concurrency = parseConcurrency(options.concurrency);
  const ids = await collectIds(options.ids, ctx.io.stdin);
  if (options.dryRun) {
    await writeText(ctx.io.stdout, ids.map((id) => `would mark #${id} read: POST /api/TicketsApi/read/${id}\n`).join(''));
    return;
  }
  const api = await ctx.api();
  const reporter = createBulkReporter(ctx.io, { json: ctx.globals.json, quiet: ctx.globals.quiet, verb: 'marked read', total: ids.length });
  const outcome = await runBulk(
    ids,
    async (id) => {
      const response = await api.markRead(id);
      return { status: response.status, body: response.body };
    },
    { concurrency, signal: ctx.signal, onResult: (result) => reporter.result(result) },
  );
  reporter.finish(outcome);
}
