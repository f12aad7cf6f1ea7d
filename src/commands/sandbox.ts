import { join } from 'node:path';
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { InterruptedError, OperationError, UsageError } from '../errors.js';
import { breakLineAfterCtrlC } from '../output/io.js';
import { wholeNumberOption } from '../util/ids.js';
import { loginUrlFor } from '../config/url.js';

const DEFAULT_SANDBOX_PORT = 8642;

export interface SandboxCommandOptions {
  port: string;
  host: string;
  data?: string | undefined;
  seedTickets?: string | undefined;
}

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('sandbox')
    .description('Run a local emulator of the service with demo data (for trying tkt and for tests)')
    .option('--port <n>', 'port to listen on (0 = any free port)', String(DEFAULT_SANDBOX_PORT))
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--data <file>', 'keep the state in this JSON file (reloaded at start; uploads go next to it)')
    .option('--seed-tickets <n>', 'generate this many extra tickets (load tests)')
    .addHelpText(
      'after',
      `\nThe sandbox listens on 127.0.0.1:${DEFAULT_SANDBOX_PORT} by default and prints its URL and the demo logins` +
        '\n(admin/admin, tech/tech, private/private, viewer/viewer). Stop it with Ctrl-C.' +
        '\n\nExamples:\n  $ tkt sandbox\n  $ tkt sandbox --port 0 --data ./sandbox.json\n  $ tkt login --url http://127.0.0.1:8642 -u admin',
    );
  host.action(command, (_args, opts, ctx) => run(opts, ctx), { graceful: true });
}

export async function run(options: SandboxCommandOptions, ctx: Context): Promise<void> {
  const port = wholeNumberOption('--port', options.port, { min: 0, max: 65535 });
  const seedTickets = options.seedTickets === undefined ? 0 : wholeNumberOption('--seed-tickets', options.seedTickets, { min: 0, max: 1_000_000 });
  // A sandbox may serve for days, through upgrades of tkt (Context.loadAhead).
  await ctx.loadAhead();
  const { startSandbox, SandboxDataError } = await import('../sandbox/index.js');
  let sandbox;
  try {
    sandbox = await startSandbox({ port, host: options.host, dataFile: options.data, seedTickets });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new OperationError(`port ${port} on ${options.host} is already in use`, { hint: 'choose another with --port (0 picks a free one)' });
    if (error instanceof SandboxDataError && error.problem === 'directory') {
      throw new UsageError(`--data ${error.path} is a directory: give the path of a file for the sandbox's state`, {
        hint: `for example --data ${join(error.path, 'sandbox.json')}`,
      });
    }
    if (error instanceof SandboxDataError) {
      throw new OperationError(error.message, { hint: 'move it away or delete it to start afresh with the demo data, or give another --data file' });
    }
    throw error;
  }
  // Ctrl-C is how a sandbox ends.
  const stopListening = breakLineAfterCtrlC(ctx.io, ctx.signal);
  try {
    const running = sandbox;
    await ctx.output.document(
      { url: running.url, demoLogins: running.demoLogins },
      {
        human: () => {
          const logins = running.demoLogins.map((l) => `  ${l.username.padEnd(8)} password ${l.password.padEnd(8)} ${l.role}`).join('\n');
          return `Sandbox listening on ${running.url}\n\nDemo logins:\n${logins}\n\nTry: tkt login --url ${loginUrlFor(running.url)} -u tech\nPress Ctrl-C to stop it (started with &: kill %1, or fg then Ctrl-C).\n`;
        },
        quiet: () => `${running.url}\n`,
      },
    );
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    stopListening();
    await sandbox.close();
  }
  // Only a signal ends it: exit 130 or 143 as any command so stopped, as docker run in the foreground (README, The sandbox).
  throw new InterruptedError();
}
