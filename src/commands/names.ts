// Every command's name and aliases, in the order `tkt --help` lists them. The CLI registers only
// the command a run invokes (src/commands/index.ts loads its module), so what needs every name
// without loading every command reads it here: the choice of what to load, user aliases (which
// never shadow one of these) and the check that each module registers what this table says.
export const COMMAND_NAMES = [
  { name: 'login', aliases: [] },
  { name: 'logout', aliases: [] },
  { name: 'whoami', aliases: [] },
  { name: 'auth', aliases: [] },
  { name: 'profiles', aliases: [] },
  { name: 'config', aliases: [] },
  { name: 'alias', aliases: [] },
  { name: 'list', aliases: [] },
  { name: 'status', aliases: [] },
  { name: 'triage', aliases: [] },
  { name: 'watch', aliases: [] },
  { name: 'show', aliases: ['view'] },
  { name: 'browse', aliases: [] },
  { name: 'read', aliases: [] },
  { name: 'metadata', aliases: [] },
  { name: 'create', aliases: [] },
  { name: 'update', aliases: [] },
  { name: 'reply', aliases: [] },
  { name: 'forward', aliases: [] },
  { name: 'resolve', aliases: [] },
  { name: 'templates', aliases: [] },
  { name: 'close', aliases: [] },
  { name: 'pickup', aliases: [] },
  { name: 'assign', aliases: [] },
  { name: 'reopen', aliases: [] },
  { name: 'attach', aliases: [] },
  { name: 'delete', aliases: [] },
  { name: 'api', aliases: [] },
  { name: 'sandbox', aliases: [] },
  { name: 'mcp', aliases: [] },
  { name: 'completion', aliases: [] },
  // Hidden: what the completion scripts call on every Tab press.
  { name: '__complete', aliases: [] },
  { name: 'help', aliases: [] },
] as const satisfies ReadonlyArray<{ name: string; aliases: readonly string[] }>;

export type CommandName = (typeof COMMAND_NAMES)[number]['name'];

/** The command called `word` (by its name or an alias), if there is one. */
export function commandCalled(word: string): CommandName | undefined {
  return COMMAND_NAMES.find((command) => command.name === word || (command.aliases as readonly string[]).includes(word))?.name;
}

/** Every name and alias of a command: what a user alias may not be called. */
export function builtinNames(): string[] {
  return COMMAND_NAMES.flatMap((command) => [command.name, ...command.aliases]);
}
