// A usage error says what to type (README: usage errors): an unquoted value with spaces, a
// misspelt global option after the command, a missing ID, an option before its command, a
// ticket ID for a command, a subcommand by another name. No request is sent for any of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quickParse } from '../../src/cmdutil/quick-parse.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { argvTable } from '../helpers/program.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

/** The run's stderr, checked to be a usage error (exit 2) that sent nothing. */
async function usageError(argv: string[]): Promise<string> {
  const before = h.sandbox.stats.requests;
  const result = await h.cli(argv);
  expect({ argv, code: result.code, stdout: result.stdout }).toEqual({ argv, code: 2, stdout: '' });
  expect(h.sandbox.stats.requests).toBe(before);
  return result.stderr;
}

describe('an unquoted value with spaces', () => {
  it('names the stray words and quotes the value they follow', async () => {
    const create = ['create', '--title', 'VPN down', '--description', 'x', '--requester', 'Anna', 'Berg', '--site', 'Head Office', '--department', 'IT'];
    expect(await usageError(create)).toBe(
      `error: too many arguments for 'create'. Expected 0 arguments but got 1: "Berg"\nhint: quote a value with spaces: --requester "Anna Berg"\n(add --help for usage)\n`,
    );
    expect(await usageError(['reply', '1013', '--message', 'On', 'my', 'way'])).toContain(
      ': "my" "way"\nhint: quote a value with spaces: --message "On my way"\n',
    );
  });

  it('in an ID... command, is that mistake, not an invalid ticket ID; IDs after a value are IDs', async () => {
    const argv = ['resolve', '1013', '--details', 'Replaced', 'the', 'mouse'];
    // The quick path leaves it to the full CLI, which says it.
    expect(quickParse(argv, argvTable)).toBeUndefined();
    expect(await usageError(argv)).toBe(
      'error: --details took "Replaced" only: "the mouse" would be read as ticket IDs\nhint: quote a value with spaces: --details "Replaced the mouse"\n',
    );
    const ids = await h.cli(['resolve', '--details', 'done', '1013', '1014', '--dry-run']);
    expect(ids.code).toBe(0);
  });

  it('in assign, two words where the user was expected are one name', async () => {
    expect(await usageError(['assign', '1013', 'Omar', 'Haddad'])).toBe(
      'error: "Omar" is no ticket ID: is "Omar Haddad" the user?\nhint: quote a name with spaces: tkt assign 1013 "Omar Haddad"\n',
    );
  });

  it('an option typed without its dashes: the line with them', async () => {
    expect(await usageError(['update', '1031', 'priority', 'high'])).toContain(
      `: "priority" "high"\nhint: an option starts with --: tkt update 1031 --priority high\n`,
    );
  });

  it('is not suggested for a stray word that follows no value', async () => {
    const stderr = await usageError(['show', '1013', '1014']);
    expect(stderr).toContain(`too many arguments for 'show'. Expected 1 argument but got 2: "1014"\nhint: usage: tkt show ID\n`);
    expect(stderr).not.toContain('quote');
  });
});

describe('a misspelt option after the command', () => {
  it.each([
    [['list', '--quite'], '--quiet'],
    [['list', '--jsno'], '--json'],
    [['show', '1013', '--josn'], '--json'],
    [['close', '1013', '--jsno'], '--json'],
    [['list', '--no-colour'], '--no-color'],
    [['--jsno', 'list'], '--json'],
    [['list', '--veiw', 'x'], '--view'],
    [['list', '--hlep'], '--help'],
  ])('%j: the closest option, global ones too', async (argv, meant) => {
    expect(await usageError(argv)).toContain(`error: unknown option '${argv.find((word) => word.startsWith('--'))}'\n(Did you mean ${meant}?)\n`);
  });
});

describe('a missing ticket ID', () => {
  it.each([
    ['show', 'tkt show ID'],
    ['reply', 'tkt reply ID'],
    ['close', 'tkt close ID...'],
    ['assign', 'tkt assign ID... [USER]'],
    ['pickup', 'tkt pickup ID...'],
  ])('tkt %s: the usage, and how to write #42 so that the shell keeps it', async (command, usage) => {
    expect(await usageError([command])).toContain(
      `error: missing required argument 'id'\nhint: usage: ${usage}; write '#42' in quotes: the shell drops an unquoted #42 and the rest of the line\n`,
    );
  });

  it('says nothing of #42 when the ID was given and another argument is missing', async () => {
    const stderr = await usageError(['attach', '1013']);
    expect(stderr).toContain("error: missing required argument 'file'\nhint: usage: tkt attach ID FILE...");
    expect(stderr).not.toContain('#42');
  });
});

describe('an option or a word in the wrong place', () => {
  it('an option of the command before it: the line with it after the command', async () => {
    expect(await usageError(['--view', 'my-open-tickets', 'list'])).toContain(
      `error: unknown option '--view'\nhint: --view is an option of tkt list: tkt list --view my-open-tickets\n`,
    );
    expect(await usageError(['--message', 'hi there', 'reply', '1013'])).toContain(
      `hint: --message is an option of tkt reply: tkt reply 1013 --message 'hi there'\n`,
    );
  });

  it('a view name after list: --view; another word: a hint', async () => {
    expect(await usageError(['list', 'my-open-tickets'])).toContain(': "my-open-tickets"\n(Did you mean --view my-open-tickets?)\n');
    expect(await usageError(['list', 'printer'])).toContain('hint: tkt list takes options only, e.g. tkt list --search printer\n');
  });

  it('a ticket ID for a command: tkt show, with the global options typed (a profile names the service)', async () => {
    expect(await usageError(['1013'])).toBe(`error: unknown command '1013'\nhint: to see ticket 1013: tkt show 1013\n(add --help for usage)\n`);
    expect(await usageError(['--profile', 'work', '#1013', '--json'])).toContain(`hint: to see ticket 1013: tkt --profile work show 1013 --json\n`);
  });
});

describe('subcommands and help topics', () => {
  it('alias: the start of a subcommand, or the usual word for it (rm, remove)', async () => {
    for (const word of ['del', 'rm', 'remove']) {
      expect(await usageError(['alias', word, 'mine'])).toContain(`error: unknown command '${word}'\n(Did you mean delete?)\n`);
    }
  });

  // A review found `tkt open 1013` offered reopen (a change) and `tkt new` view: the usual words
  // of other CLIs for a command are that command, not the nearest spelling.
  it('a command by the usual word of other CLIs: that command, never the nearest spelling', async () => {
    for (const [word, meant] of [
      ['new', 'create'],
      ['add', 'create'],
      ['take', 'pickup'],
      ['edit', 'update'],
      ['open', 'show'],
      ['get', 'show'],
      ['search', 'list --search'],
      ['find', 'list --search'],
      ['version', '--version'],
    ] as const) {
      expect(await usageError([word, '1013'])).toContain(`error: unknown command '${word}'\n(Did you mean ${meant}?)\n`);
    }
  });

  it('help: the command or topic meant', async () => {
    expect(await usageError(['help', 'lsit'])).toContain('hint: did you mean "tkt help list"?');
    expect(await usageError(['help', 'exit-code'])).toContain('hint: did you mean "tkt help exit-codes"?');
  });

  it('alias set: a misspelt command, and an expansion left unquoted', async () => {
    expect(await usageError(['alias', 'set', 'mine', 'lsit --view my-open-tickets'])).toContain(
      "hint: did you mean list? tkt alias set mine 'list --view my-open-tickets'\n",
    );
    expect(await usageError(['alias', 'set', 'mine', 'list', '--view', 'my-open-tickets'])).toContain(
      "hint: quote the expansion: tkt alias set mine 'list --view my-open-tickets'\n",
    );
  });
});

describe('a secret', () => {
  it('is never shown in a hint', async () => {
    const stderr = await usageError(['--password', 'hunter2', 'login', '-u', 'tech']);
    expect(stderr).not.toContain('hunter2');
  });

  it('nor in the words an error names: a password typed with spaces leaves them as stray words', async () => {
    const stderr = await usageError(['login', '--url', 'http://127.0.0.1:9', '-u', 'tech', '--password=correct', 'horse', 'battery']);
    expect(stderr).toContain("error: too many arguments for 'login'");
    for (const part of ['correct', 'horse', 'battery']) expect(stderr).not.toContain(part);
  });
});

describe('a number given to an option', () => {
  it('is no start of a value with spaces: the word after it is what it is', async () => {
    expect(await usageError(['close', '1013', '--concurrency', '2', 'x'])).toContain('error: invalid ticket ID "x"');
  });
});
