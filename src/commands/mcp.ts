import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { selectTools, type ToolSelection } from '../mcp/catalog.js';
import { existingProfileName } from '../config/session.js';
import { breakLineAfterCtrlC } from '../output/io.js';
import { writeText } from '../output/write.js';

export type McpOptions = ToolSelection;

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('mcp')
    .description('Serve the help desk to AI assistants (Model Context Protocol over stdio)')
    .option('--write', 'also offer the tools that change tickets (each takes dry_run)')
    .option('--allow-delete', 'with --write: also offer delete_ticket')
    .option('--tools <names>', 'offer only these tools (comma-separated)')
    .addHelpText(
      'after',
      `
An assistant (Claude Desktop, VS Code, Cursor) starts "tkt mcp" itself and talks to it on
stdin/stdout; nothing else is written to stdout. It uses this profile's login and never asks
for a password: run "tkt login" first. Read-only by default: list_tickets, get_ticket, my_queue,
lookups. --write adds create_ticket, update_ticket, reply_to_ticket, resolve_ticket,
close_ticket, pickup_ticket, assign_ticket, reopen_ticket; --allow-delete adds delete_ticket.
Text from tickets is fenced in every answer, as data. Configuration snippets: see the README.

Examples:
  $ tkt mcp
  $ tkt mcp --profile work --write
  $ tkt mcp --tools list_tickets,get_ticket
  $ tkt mcp --write --allow-delete --tools get_ticket,delete_ticket`,
    );
  host.action(command, (_args, opts, ctx) => run(opts, ctx), { graceful: true, awaitsReads: true, saysWaiting: false });
}

export async function run(options: McpOptions, ctx: Context): Promise<void> {
  // An output option, an unknown tool name or profile fails at start (exit 2), before the SDK loads: an assistant
  // shows the error of a server that exits, not one that fails every call.
  // Taken and ignored, --json and the like would say that stdout could be shaped: it cannot.
  ctx.output.assertNoDataOutput(
    "tkt mcp's output is the protocol (JSON-RPC for an assistant)",
    'an assistant starts tkt mcp itself (README: Assistants); for tickets as data: tkt list --json',
  );
  const tools = selectTools(options);
  existingProfileName(ctx);
  // An assistant keeps the server for days, through upgrades of tkt (Context.loadAhead).
  await ctx.loadAhead();
  const { serve } = await import('../mcp/server.js');
  // Typed at a terminal, a server waiting in silence looks hung: one line on stderr says what it
  // is (stdout carries the protocol alone), and a Ctrl-C's error starts a line of its own.
  if (ctx.io.stdinIsTTY) await writeText(ctx.io.stderr, `${STARTED_AT_A_TERMINAL}\n`);
  const stopListening = breakLineAfterCtrlC(ctx.io, ctx.signal);
  try {
    await serve(ctx, tools);
  } finally {
    stopListening();
  }
}

const STARTED_AT_A_TERMINAL = 'tkt mcp: an MCP server on stdin/stdout, for an assistant to start (README: Assistants); Ctrl-C to stop';
