// The quick path reads a command line exactly as commander does, or leaves it to commander: for
// every command the table holds, command lines made from its own arguments and options (and the
// program's) in every form commander accepts and some it refuses, each parsed by commander's
// program and by quickParse, which must agree or return undefined.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { buildProgram, programArgvTable } from '../../src/commander-program.js';
import { commandWord, quickParse, type QuickCommandLine } from '../../src/cmdutil/quick-parse.js';
import type { TableCommand, TableOption } from '../../src/cmdutil/argv-table.js';
import { commandOptions, createRunState, runOptions } from '../../src/process-host.js';
import { allCommands } from '../helpers/program.js';
import { fakeProcess } from '../cli/fake-process.js';

type Parsed = Omit<QuickCommandLine, 'command'> & { command: string };

const program = buildProgram(fakeProcess(), createRunState(), allCommands);
const table = programArgvTable(program);

// Every command's action now only records what commander hands it.
const last: { parsed?: Parsed } = {};
const recorded = () => last.parsed;
for (const command of program.commands) {
  command.action((...received: unknown[]) => {
    const self = received.at(-1) as CommandUnknownOpts;
    last.parsed = {
      command: self.name(),
      args: received.slice(0, -2),
      opts: commandOptions(self),
      runOptions: runOptions(self),
      programOpts: { ...program.opts() },
    };
  });
}

// The command commander hands the rest of the line to, even where that command then refuses it.
const dispatched: { name?: string } = {};
program.hook('preSubcommand', (_program, command) => void (dispatched.name = command.name()));

/** What commander makes of `argv`: the action's arguments, or 'refused' (an error, help or the version). */
async function byCommander(argv: readonly string[]): Promise<Parsed | 'refused'> {
  delete last.parsed;
  delete dispatched.name;
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch {
    return 'refused';
  }
  // Read through a call: the action set it meanwhile.
  return recorded() ?? 'refused';
}

/** Sample values for an option that takes one. */
const VALUES = ['v', '1013', '-', '-5', '--json', 'a=b', ''];

/** Every way of giving `option` once (with value `value`), as separate words. */
function forms(option: TableOption, value: string): string[][] {
  const out: string[][] = [];
  const names = [option.long, option.short].filter((name) => name !== undefined);
  for (const name of names) {
    if (option.value === 'none') out.push([name]);
    else {
      out.push([name, value], [name]);
      if (name.startsWith('--')) out.push([`${name}=${value}`]);
      else out.push([`${name}${value}`]);
    }
  }
  return out;
}

/** The command's required arguments, filled in, and variations on their number. */
function argumentSets(command: TableCommand): string[][] {
  const required = command.arguments.filter((argument) => argument.required).map(() => '1013');
  const sets = [required, [...required, '1014'], required.slice(1), ['-'], ['-5', ...required.slice(1)]];
  return sets;
}

function commandLines(command: TableCommand): string[][] {
  const [name] = command.names;
  const lines: string[][] = [];
  const alias = command.names[1];
  for (const args of argumentSets(command)) {
    lines.push([name!, ...args]);
    if (alias !== undefined) lines.push([alias, ...args]);
    for (const option of [...command.options, ...table.options]) {
      for (const value of VALUES) {
        for (const form of forms(option, value)) {
          lines.push([name!, ...args, ...form], [name!, ...form, ...args]);
          if (table.options.includes(option)) lines.push([...form, name!, ...args]);
        }
      }
    }
    // Twice the same option (repeatable ones collect), a negated and a plain one, short flags
    // grouped, the end of options, an unknown option, help and the version.
    for (const option of command.options.filter((candidate) => candidate.value !== 'none')) {
      lines.push([name!, ...args, option.long ?? option.short!, 'a', option.long ?? option.short!, 'b']);
    }
    lines.push([name!, ...args, '--no-input', '--json', '-q']);
    lines.push([name!, ...args, '-qV'], [name!, '-q', '--', ...args], [name!, '--', '-x', ...args]);
    lines.push([name!, ...args, '--bogus'], [name!, ...args, '-h'], [name!, '--help', ...args], ['--version', name!, ...args]);
    lines.push(['--timeout', '5', name!, ...args], ['--timeout=5', name!, ...args, '--url', 'http://127.0.0.1:1']);
  }
  return lines;
}

describe('quickParse against commander', () => {
  it('holds every top-level command without subcommands, under all its names', () => {
    const expected = program.commands.filter((command) => command.commands.length === 0).map((command) => [command.name(), ...command.aliases()]);
    expect(table.commands.map((command) => command.names)).toEqual(expected);
  });

  for (const command of table.commands) {
    it(`reads ${command.names[0]!}'s command lines as commander does, or leaves them to it`, async () => {
      let quick = 0;
      for (const argv of commandLines(command)) {
        const mine = quickParse(argv, table);
        const theirs = await byCommander(argv);
        if (mine === undefined) continue;
        quick += 1;
        expect({ argv, parsed: mine }).toEqual({ argv, parsed: theirs });
      }
      // The plain forms are read quickly (only a command with a parsed argument is commander's alone).
      if (!command.arguments.some((argument) => argument.parsed)) {
        expect(quick).toBeGreaterThan(0);
        const [name] = command.names;
        const required = command.arguments.filter((argument) => argument.required).map(() => '1013');
        expect(quickParse([name!, ...required], table)).toBeDefined();
        expect(quickParse([name!, ...required, '--json'], table)).toBeDefined();
      }
      // create's hundreds of lines, each parsed by commander too: 23 s under a loaded machine's full suite.
    }, 60_000);
  }

  it('leaves help, the version, unknown commands and options, and missing arguments to commander', () => {
    for (const argv of [
      ['--help'],
      ['-V'],
      ['show', '--help'],
      ['show', '-h'],
      ['nope'],
      [],
      ['show'],
      ['show', '1', '2'],
      ['show', '1', '--nope'],
      ['--json'],
    ]) {
      expect({ argv, parsed: quickParse(argv, table) }).toEqual({ argv, parsed: undefined });
    }
  });

  // The bin's loader picks a command's bundle by this word (src/bundle-loader.ts): a script that
  // puts the global options first must get the command commander would run, or the full CLI.
  it("finds the command's word after the program's options in every form, as commander does, or leaves the line", async () => {
    const isCommand = (word: string) => table.commands.some((command) => command.names.includes(word));
    const commandOf = (word: string | undefined) => table.commands.find((command) => word !== undefined && command.names.includes(word))?.names[0];
    const lines: string[][] = [];
    for (const command of table.commands) {
      const [name] = command.names;
      const args = command.arguments.filter((argument) => argument.required).map(() => '1013');
      for (const word of command.names) {
        lines.push([word, ...args], ['--', word, ...args], ['-q', '-q', word, ...args], ['-qq', word, ...args], ['--bogus', word, ...args]);
        lines.push(['-qV', word], ['--help', word], ['-1', word], ['--timeout=5', '-q', '--json', word, ...args, '--url', 'http://127.0.0.1:1']);
      }
      for (const option of table.options) {
        // A value that names a command is the option's, and the next word is the command.
        for (const value of [...VALUES, 'list', 'show', '--', '-q']) {
          for (const form of forms(option, value)) lines.push([...form, name!, ...args], [...form, '--json', name!, ...args], [...form]);
        }
      }
    }
    let found = 0;
    for (const argv of lines) {
      const word = commandWord(argv, table, isCommand);
      await byCommander(argv);
      // The word names the command commander dispatches to, or none where it dispatches to none.
      expect({ argv, command: commandOf(word) }).toEqual({ argv, command: word === undefined ? undefined : dispatched.name });
      if (word === undefined && dispatched.name !== undefined) {
        // Left to the full CLI: only where commander dispatches but does not run (the version) or
        // the quick parse steps aside.
        expect({ argv, parsed: quickParse(argv, table) }).toEqual({ argv, parsed: undefined });
      }
      if (word !== undefined) found += 1;
    }
    expect(found).toBeGreaterThan(lines.length / 2);
    // Every command line of every form through commander: about 8 s alone, past 20 s on a machine
    // loaded by other test files.
  }, 60_000);

  it('reads a negative number as an argument at the command and as an unknown option before it, as commander does', async () => {
    const argv = ['update', '-5', '--priority', '-1'];
    expect(quickParse(argv, table)).toEqual(await byCommander(argv));
  });
});
