// Every option that takes a value, of every command, given an empty or blank value: exit 2
// before any request, named in the same words everywhere (README: Text values). An empty value is
// an unset variable or a command that printed nothing, never the option left out. Made from the
// program itself: a new command or option is covered without editing this file.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/commander-program.js';
import { createRunState } from '../../src/process-host.js';
import { fakeProcess } from '../cli/fake-process.js';
import type { Harness } from '../helpers/harness.js';
import { allCommands, commandPaths } from '../helpers/program.js';
import { sendsNothing, useHarness } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({}, (harness) => (h = harness));

const program = buildProgram(fakeProcess(), createRunState(), allCommands);
const globalFlags = new Set(program.options.map((option) => option.flags));

/** Options whose empty value means something, and what. */
const EMPTY_MEANS_SOMETHING = new Map([
  // login --domain "": a local account, not a directory one (the default).
  ['login --domain', 'a local account'],
  // login --password exists only to say that a password is never a flag.
  ['login --password', 'refused whatever its value'],
  // A value outside the choices, "" too: commander's own refusal, exit 2 naming the option.
  ['create --on-existing', 'one of its choices'],
]);

/** Every command, its option that takes a value, and a command line that reaches its check. */
const CASES = commandPaths().flatMap((path) => {
  const command = path.reduce<CommandUnknownOpts>((parent, name) => parent.commands.find((sub) => sub.name() === name)!, program);
  if (command.commands.length > 0) return [];
  // Each required argument with a value it accepts: the first of its choices, else a ticket ID.
  const args = command.registeredArguments.filter((argument) => argument.required).map((argument) => argument.argChoices?.[0] ?? '1');
  return command.options
    .filter((option) => (option.required || option.optional) && !globalFlags.has(option.flags))
    .map((option) => ({ name: `${path.join(' ')} ${option.long!}`, flag: option.long!, argv: [...path, ...args] }))
    .filter((line) => !EMPTY_MEANS_SOMETHING.has(line.name));
});
// The global options, on one command.
const GLOBAL_CASES = program.options
  .filter((option) => option.required || option.optional)
  .map((option) => ({ name: `list ${option.long!}`, flag: option.long!, argv: ['list'] }));

describe.each([...CASES, ...GLOBAL_CASES])('$name', ({ flag, argv }) => {
  it('is exit 2 naming the option when empty or blank, before any request', async () => {
    for (const [value, error] of [
      ['', `${flag} is empty`],
      [' \t', `${flag} is empty (only whitespace)`],
    ] as const) {
      const result = await sendsNothing(h, () => h.cli([...argv, flag, value], { env: { CI: 'true' } }));
      expect(result.stderr.split('\n')[0], JSON.stringify(value)).toBe(`error: ${error}`);
      expect(result.code).toBe(2);
    }
  });
});

it('covers the options of the commands that take values, nested ones too', () => {
  const names = CASES.map((line) => line.name);
  for (const name of ['list --view', 'reply --subject', 'sandbox --host', 'api --field', 'watch --state']) expect(names).toContain(name);
  expect(GLOBAL_CASES.map((line) => line.flag)).toEqual(['--url', '--profile', '--query', '--timeout']);
});
