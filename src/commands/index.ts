// The command modules, each loaded only when a run needs it: src/program.ts loads the command the
// command line invokes (every command only where the whole CLI is needed: the program's help, an
// unknown command's suggestions, completion scripts) and registers just that with commander.
import type { CommandHost, Program } from './host.js';
import { COMMAND_NAMES, type CommandName } from './names.js';

/** What a command module gives the CLI: its definition, registered on the program. */
export interface CommandModule {
  register(program: Program, host: CommandHost): void;
}

const MODULES: Readonly<Record<CommandName, () => Promise<CommandModule>>> = {
  login: () => import('./login.js'),
  logout: () => import('./logout.js'),
  whoami: () => import('./whoami.js'),
  auth: () => import('./auth.js'),
  profiles: () => import('./profiles.js'),
  config: () => import('./config.js'),
  alias: () => import('./alias.js'),
  list: () => import('./list.js'),
  status: () => import('./status.js'),
  triage: () => import('./triage.js'),
  watch: () => import('./watch.js'),
  show: () => import('./show.js'),
  browse: () => import('./browse.js'),
  read: () => import('./read.js'),
  metadata: () => import('./metadata.js'),
  create: () => import('./create.js'),
  update: () => import('./update.js'),
  reply: () => import('./reply.js'),
  forward: () => import('./forward.js'),
  resolve: () => import('./resolve.js'),
  templates: () => import('./templates.js'),
  close: () => import('./close.js'),
  pickup: () => import('./pickup.js'),
  assign: () => import('./assign.js'),
  reopen: () => import('./reopen.js'),
  attach: () => import('./attach.js'),
  delete: () => import('./delete.js'),
  api: () => import('./api.js'),
  sandbox: () => import('./sandbox.js'),
  mcp: () => import('./mcp.js'),
  completion: () => import('./completion.js'),
  __complete: () => import('./complete.js'),
  help: () => import('./help.js'),
};

export interface LoadedCommand {
  name: CommandName;
  module: CommandModule;
}

/** The modules of the commands `names` (by default every command), in the order `tkt --help` lists them. */
export async function loadCommands(names?: readonly CommandName[]): Promise<LoadedCommand[]> {
  const wanted = COMMAND_NAMES.filter(({ name }) => names === undefined || names.includes(name));
  return Promise.all(wanted.map(async ({ name }) => ({ name, module: await MODULES[name]() })));
}

/** Registers `commands` on the program, each checked against its names in src/commands/names.ts. */
export function registerCommands(program: Program, host: CommandHost, commands: readonly LoadedCommand[]): void {
  for (const { name, module } of commands) {
    module.register(program, host);
    const registered = program.commands.at(-1);
    const listed = COMMAND_NAMES.find((command) => command.name === name)!;
    const found = registered === undefined ? 'nothing' : [registered.name(), ...registered.aliases()].join(', ');
    if (found !== [listed.name, ...listed.aliases].join(', '))
      throw new Error(`src/commands/names.ts lists ${[listed.name, ...listed.aliases].join(', ')}, but its module registers ${found}`);
  }
}
