// The program's commands and their help as the CLI prints it, for tests that cover every
// command (a new one is covered without editing them).
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { createRunState } from '../../src/process-host.js';
import { buildProgram, programArgvTable } from '../../src/commander-program.js';
import { loadCommands } from '../../src/commands/index.js';
import { fakeProcess } from '../cli/fake-process.js';

// Every command's module, loaded once: each test's program registers all of them.
export const allCommands = await loadCommands();

/** The command line's table as the build writes it (dist/argv-table.json), for runs through the quick path. */
export const argvTable = programArgvTable(buildProgram(fakeProcess(), createRunState(), allCommands));

/** Every visible command, nested ones (config get) included, as the words that call it. */
export function commandPaths(command: CommandUnknownOpts = buildProgram(fakeProcess(), createRunState(), allCommands), path: string[] = []): string[][] {
  return command
    .createHelp()
    .visibleCommands(command)
    .filter((sub) => sub.name() !== 'help')
    .flatMap((sub) => [[...path, sub.name()], ...commandPaths(sub, [...path, sub.name()])]);
}

/**
 * The whole help of the command at `path` ([] for the program) as the CLI writes it out, or,
 * with `width`, as commander alone lays it out for that width (the text after the options as
 * written in the source).
 */
export function helpOf(path: string[], width?: number): string {
  const proc = fakeProcess();
  let text = '';
  proc.stdout.on('data', (chunk: Buffer) => void (text += chunk.toString('utf8')));
  const program = buildProgram(proc, createRunState(), allCommands);
  if (width !== undefined) {
    const everyCommand = (command: CommandUnknownOpts): CommandUnknownOpts[] => [command, ...command.commands.flatMap(everyCommand)];
    for (const command of everyCommand(program)) {
      command.configureOutput({ ...command.configureOutput(), writeOut: (chunk) => void (text += chunk), getOutHelpWidth: () => width });
    }
  }
  const command = path.reduce<CommandUnknownOpts>((parent, name) => parent.commands.find((sub) => sub.name() === name)!, program);
  command.outputHelp();
  return text;
}
