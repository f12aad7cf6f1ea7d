// Every command, registered in the order `tkt --help` lists them.
import type { Command } from 'commander';
import type { CommandHost } from '../cli.js';

export function registerCommands(program: Command, host: CommandHost): void {
  void program;
  void host;
}
