import { Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { createRunState } from '../../src/process-host.js';
import { completionSpec, type CommandSpec, type ValueCompletion } from '../../src/completion/spec.js';
import { buildProgram } from '../../src/commander-program.js';
import { loadCommands } from '../../src/commands/index.js';
import { FILTER_FIELDS, fieldsFor, type TicketEndpoint, type TicketFieldSpec } from '../../src/model/fields.js';
import { addFieldOptions, flagOf } from '../../src/fields/options.js';
import { fakeProcess } from '../cli/fake-process.js';

// Every command's module, loaded once: each test's program registers all of them.
const allCommands = await loadCommands();

const spec = completionSpec(buildProgram(fakeProcess(), createRunState(), allCommands));

function commandSpec(name: string): CommandSpec {
  const found = spec.commands.find((command) => command.name === name);
  if (found === undefined) throw new Error(`no command ${name} in the completion spec`);
  return found;
}

function completionOf(command: string, flag: string): ValueCompletion | undefined {
  const option = commandSpec(command).options.find((candidate) => candidate.long === flag);
  if (option === undefined) throw new Error(`tkt ${command} has no ${flag}`);
  return option.value;
}

/** The cached names of `kind` (from `tkt __complete KIND`), offered beside `words`. */
const names = (kind: string, words: string[] = []) => ({ type: 'names', kind, words });
const FILES = { type: 'files' };
const TYPED = { type: 'words', words: [] };

/** What the field table says a field's value is: a lookup kind (people, who may be @me, too), files, or text. */
function tableSays(field: TicketFieldSpec): object {
  if (field.value.type === 'lookup') return names(field.value.kind, ['requester', 'assignee'].includes(field.value.kind) ? ['@me'] : []);
  return field.value.type === 'files' ? FILES : TYPED;
}

// The commands whose ticket field options come from the field table, and for which endpoints.
const FIELD_COMMANDS: ReadonlyArray<[string, TicketEndpoint[]]> = [
  ['create', ['register', 'new']],
  ['update', ['update']],
];

describe('completion of ticket field options', () => {
  it.each(FIELD_COMMANDS)('completes every field option of tkt %s as the field table types it', (command, endpoints) => {
    const fields = endpoints.flatMap(fieldsFor).filter((field, i, all) => all.findIndex((other) => other.key === field.key) === i);

    expect(fields.length).toBeGreaterThan(10);
    for (const field of fields) expect(completionOf(command, flagOf(field.key)), flagOf(field.key)).toEqual(tableSays(field));
  });

  it("takes a field's lookup kind from the field table, not from the option's name", () => {
    // A command of no one's: its field options come from the table, its own --site is free text.
    const program = new Command('tkt');
    addFieldOptions(program.command('fields'), ['update']);
    program.command('other').option('--site <name>', 'a site, not a ticket field').option('--notes <file>', 'not declared as a file');

    const { commands } = completionSpec(program);
    const value = (command: string, flag: string) => commands.find((c) => c.name === command)?.options.find((o) => o.long === flag)?.value;

    expect(value('fields', '--site')).toEqual(names('site'));
    expect(value('fields', '--assignee')).toEqual(names('assignee', ['@me']));
    expect(value('other', '--site')).toEqual(TYPED);
    expect(value('other', '--notes')).toEqual(TYPED);
  });
});

// The options that are not ticket fields and complete more than free text, as users see them.
// A person is also @me wherever tkt takes one; "none" (no assignee) is a filter of list only.
const OTHER_OPTIONS: ReadonlyArray<[string, string, object]> = [
  ['list', '--requester', names('requester', ['@me'])],
  ['list', '--status', names('status')],
  ['list', '--assignee', names('assignee', ['@me', 'none'])],
  ['list', '--view', { type: 'words', words: expect.arrayContaining(['my-overdue-tickets', 'unassigned-tickets']) }],
  ['list', '--sort', { type: 'words', words: expect.arrayContaining(['due', '-due']) }],
  ['watch', '--view', { type: 'words', words: expect.arrayContaining(['unassigned-tickets']) }],
  ['watch', '--requester', names('requester', ['@me'])],
  ['watch', '--status', names('status')],
  ['watch', '--assignee', names('assignee', ['@me', 'none'])],
  ['watch', '--state', FILES],
  ['triage', '--view', { type: 'words', words: expect.arrayContaining(['my-overdue-tickets']) }],
  ['reopen', '--status', names('status')],
  ['close', '--by', names('assignee', ['@me'])],
  ['resolve', '--by', names('assignee', ['@me'])],
  ['resolve', '--requester', names('requester', ['@me'])],
  ['reply', '--as-requester', names('requester', ['@me'])],
  ['close', '--attach', FILES],
  ['reply', '--attach', FILES],
  ['forward', '--attach', FILES],
  ['reply', '--message-file', FILES],
  ['forward', '--message-file', FILES],
  ['resolve', '--details-file', FILES],
  ['create', '--description-file', FILES],
  ['create', '--from', FILES],
  ['create', '--on-existing', { type: 'words', words: ['reply', 'skip'] }],
  ['create', '--report', FILES],
  ['create', '--resume', FILES],
  ['create', '--attach-dir', FILES],
  ['api', '--input', FILES],
  ['sandbox', '--data', FILES],
  ['reply', '--template', names('template')],
  ['resolve', '--template', names('template')],
  ['metadata', '--collection', { type: 'words', words: expect.arrayContaining(['sites', 'technicians', 'status']) }],
];

describe('completion of the other options and arguments', () => {
  it("completes every filter of tkt list with its lookup kind's names, as the field table gives the filters", () => {
    expect(FILTER_FIELDS.length).toBeGreaterThan(3);
    for (const filter of FILTER_FIELDS) {
      expect(completionOf('list', flagOf(filter.key)), filter.key).toMatchObject({ type: 'names', kind: filter.value.kind });
    }
  });

  it.each(OTHER_OPTIONS)('completes tkt %s %s', (command, flag, expected) => {
    expect(completionOf(command, flag)).toEqual(expected);
  });

  it('completes --profile with the profiles of the config folder', () => {
    expect(spec.globalOptions.find((option) => option.long === '--profile')?.value).toEqual(names('profile'));
  });

  it('types every other option with a value freely (no names, no files)', () => {
    const special = new Set([...OTHER_OPTIONS.map(([command, flag]) => `${command} ${flag}`), ' --profile']);
    for (const [command, endpoints] of FIELD_COMMANDS) for (const field of endpoints.flatMap(fieldsFor)) special.add(`${command} ${flagOf(field.key)}`);
    for (const filter of FILTER_FIELDS) for (const command of ['list', 'watch']) special.add(`${command} ${flagOf(filter.key)}`);
    const options = [
      ...spec.globalOptions.map((option) => ['', option] as const),
      ...spec.commands.flatMap((command) => command.options.map((option) => [command.name, option] as const)),
    ];
    const rest = options.filter(([command, option]) => option.value !== undefined && !special.has(`${command} ${option.long}`));

    expect(rest.length).toBeGreaterThan(20);
    for (const [command, option] of rest) expect(option.value, `tkt ${command} ${option.long}`).toEqual(TYPED);
  });

  it("completes attach's FILE arguments and assign's USER, and no other command's arguments after the first", () => {
    const withArguments = spec.commands.filter((command) => command.argumentsAfterFirst !== undefined);

    expect(withArguments.map(({ name, argumentsAfterFirst }) => ({ name, argumentsAfterFirst }))).toEqual([
      { name: 'assign', argumentsAfterFirst: names('assignee', ['@me']) },
      { name: 'attach', argumentsAfterFirst: FILES },
    ]);
  });

  it('completes the NAME of templates show and edit with the templates, of alias set and delete with the aliases, and help with the commands, the topics and the aliases', () => {
    expect(commandSpec('templates').subcommandArguments).toEqual({ show: names('template'), edit: names('template') });
    expect(commandSpec('config').subcommandArguments).toMatchObject({ get: { type: 'words', words: expect.arrayContaining(['pager', 'editor']) } });
    expect(commandSpec('alias').subcommandArguments).toEqual({ set: names('alias'), delete: names('alias') });
    expect(commandSpec('help').argumentNames).toBe('alias');
    const help = commandSpec('help').argumentWords;
    expect(help).toEqual(expect.arrayContaining(['environment', 'exit-codes', 'formatting']));
    expect(help).toEqual(expect.arrayContaining(spec.commands.filter((command) => command.name !== 'help').map((command) => command.name)));
  });

  it("declares every command's positional arguments, as zsh needs to complete what follows them", () => {
    const program = buildProgram(fakeProcess(), createRunState(), allCommands);
    for (const command of spec.commands) {
      const declared = program.commands.find((candidate) => candidate.name() === command.name)!.registeredArguments;
      expect(command.positionals, command.name).toEqual(declared.map((argument) => ({ name: argument.name(), variadic: argument.variadic })));
    }
    expect(commandSpec('update').positionals).toEqual([{ name: 'id', variadic: false }]);
    expect(commandSpec('close').positionals).toEqual([{ name: 'id', variadic: true }]);
  });
});
