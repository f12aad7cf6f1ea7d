// tkt alias set|list|delete and their expansion before the command line is parsed (README: Aliases).
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingsFileIn } from '../../src/config/paths.js';
import { createConfigStore } from '../../src/config/store.js';
import { builtinNames } from '../../src/commands/names.js';
import { expandAlias, readAliases, splitWords } from '../../src/desk/aliases.js';
import type { Harness } from '../helpers/harness.js';
import { sendsNothing, unusedTicket, useHarness } from '../helpers/sandbox-state.js';
import { BIN, ensureBuilt } from '../helpers/terminal.js';
import { shellWord } from '../../src/util/shell-word.js';

let h: Harness;
useHarness({ profiles: ['viewer'] }, (harness) => (h = harness));

const OPEN = 1;

describe('alias expansion', () => {
  it('fills $1, $2... and appends the arguments left over', () => {
    expect(expandAlias('fx', 'resolve $1 --details "Fixed: $2"', ['42', 'toner', '--json'])).toEqual({
      kind: 'tkt',
      argv: ['resolve', '42', '--details', 'Fixed: toner', '--json'],
      spare: 0,
    });
    expect(expandAlias('mine', 'list --view my-open-tickets', ['--limit', '5'])).toEqual({
      kind: 'tkt',
      argv: ['list', '--view', 'my-open-tickets', '--limit', '5'],
      spare: 0,
    });
    expect(() => expandAlias('fx', 'resolve $2', ['42'])).toThrow('alias fx needs an argument for $2 (it got 1)');
    expect(expandAlias('sh', '!echo "$1"', ['a b'])).toEqual({ kind: 'shell', script: 'echo "$1"', args: ['a b'] });
  });

  it('fills the placeholders from the arguments before the first option, and after --; options are appended as they come', () => {
    const fixed = 'resolve $1 --details "Fixed: $2"';
    expect(expandAlias('fx', fixed, ['42', 'toner', '--dry-run', 'x'])).toEqual({
      kind: 'tkt',
      argv: ['resolve', '42', '--details', 'Fixed: toner', '--dry-run', 'x'],
      spare: 0,
    });
    // A lone "-" is an argument (stdin); after "--" every argument is a plain word.
    expect(expandAlias('fx', fixed, ['-', '-q', '--', '--toner--'])).toEqual({
      kind: 'tkt',
      argv: ['resolve', '-', '--details', 'Fixed: --toner--', '-q'],
      spare: 0,
    });
    // Plain words left over stay plain: before the options, or after "--" again.
    expect(expandAlias('fx', 'list --view $1', ['mine', 'extra', '--limit', '5', '--', '-x'])).toEqual({
      kind: 'tkt',
      argv: ['list', '--view', 'mine', 'extra', '--limit', '5', '--', '-x'],
      spare: 1,
    });
    expect(() => expandAlias('fx', fixed, ['42', '--dry-run'])).toThrow(
      expect.objectContaining({ message: 'alias fx needs an argument for $2 (it got 1)', hint: expect.stringContaining('go before any option') }),
    );
    expect(() => expandAlias('fx', fixed, ['-q', '42', 'toner'])).toThrow('alias fx needs an argument for $1 (it got 0)');
  });

  it('splits words as sh does for quotes and backslashes', () => {
    expect(splitWords(`a 'b c' "d \\"e\\"" f\\ g ''`)).toEqual(['a', 'b c', 'd "e"', 'f g', '']);
    expect(() => splitWords(`a 'b`)).toThrow("unbalanced '");
  });
});

describe('tkt alias', () => {
  it('runs an alias with its placeholders filled and the other arguments appended', async () => {
    expect((await h.cli(['alias', 'set', 'fixed', 'resolve $1 --details "Fixed: $2"'])).code).toBe(0);
    const ticket = unusedTicket(h, (t) => t.ticketStatusId === OPEN);
    const result = await h.cli(['fixed', String(ticket.id), 'new toner', '-q']);
    expect(result.code, result.stderr).toBe(0);
    expect(ticket.resolution?.details).toBe('Fixed: new toner');

    const missing = await h.cli(['fixed']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('alias fixed needs an argument for $1');
  });

  it('runs an alias from a settings file saved with a BOM (Notepad), as every reader of the file takes it, and lists it in --help', async () => {
    expect((await h.cli(['alias', 'set', 'bommed', 'list --limit 1 -q'])).code).toBe(0);
    const file = settingsFileIn(h.configDir);
    writeFileSync(file, `\ufeff${readFileSync(file, 'utf8')}`);
    const result = await h.cli(['bommed']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^\d+\n$/);
    expect((await h.cli(['--help'])).stdout).toMatch(/\n {2}bommed +list --limit 1 -q\n/);
    expect((await h.cli(['alias', 'delete', 'bommed'])).code).toBe(0);
  });

  it("takes no option as a placeholder's value: a dry run stays one, and a misplaced option sends nothing (exit 2)", async () => {
    expect((await h.cli(['alias', 'set', 'fixed', 'resolve $1 --details "Fixed: $2"', '--clobber'])).code).toBe(0);
    const ticket = unusedTicket(h, (t) => t.ticketStatusId === OPEN);
    const dryRun = await h.cli(['fixed', String(ticket.id), 'toner', '--dry-run']);
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toContain('Fixed: toner');
    expect(ticket.ticketStatusId).toBe(OPEN);

    const misplaced = await sendsNothing(h, () => h.cli(['fixed', String(ticket.id), '--dry-run']));
    expect(misplaced.code).toBe(2);
    expect(misplaced.stderr).toContain('alias fixed needs an argument for $2');
    expect(misplaced.stderr).toContain('go before any option');
    const quietFirst = await sendsNothing(h, () => h.cli(['fixed', '-q', String(ticket.id), 'toner']));
    expect(quietFirst.code).toBe(2);
    expect(quietFirst.stderr).toContain('alias fixed needs an argument for $1');
    expect(ticket.ticketStatusId).toBe(OPEN);
    expect(ticket.resolution).toBeFalsy();
  });

  it('runs a ! alias through sh with the arguments', async () => {
    expect((await h.cli(['alias', 'set', 'greet', '!printf "%s|" "$@"; echo " $1"'])).code).toBe(0);
    const result = await h.cli(['greet', 'a b', 'c'], { env: { PATH: process.env.PATH! } });
    expect(result).toMatchObject({ code: 0, stdout: 'a b|c| a b\n' });
    expect((await h.cli(['alias', 'set', 'fail', '!exit 3'])).code).toBe(0);
    expect((await h.cli(['fail'])).code).toBe(3);
  });

  it('refuses a ! alias nested in 10 others (TKT_ALIAS_DEPTH), exit 2 naming it: one that runs itself ends', async () => {
    const path = { PATH: process.env.PATH! };
    expect((await h.cli(['alias', 'set', 'loopy', '!tkt loopy'])).code).toBe(0);
    // At the limit it is refused before sh starts: the test ends whatever tkt is on PATH.
    const refused = await h.cli(['loopy'], { env: { ...path, TKT_ALIAS_DEPTH: '10' } });
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: alias loopy is a shell alias run inside 10 others (TKT_ALIAS_DEPTH=10): it may run itself without end\nhint: see what it runs: tkt help loopy\n',
    });
    // Under it, the shell gets the depth one more.
    expect((await h.cli(['alias', 'set', 'depth', '!echo "$TKT_ALIAS_DEPTH"'])).code).toBe(0);
    expect(await h.cli(['depth'], { env: path })).toEqual({ code: 0, stdout: '1\n', stderr: '' });
    expect(await h.cli(['depth'], { env: { ...path, TKT_ALIAS_DEPTH: '9' } })).toEqual({ code: 0, stdout: '10\n', stderr: '' });
    // A value that is no count is none.
    expect(await h.cli(['depth'], { env: { ...path, TKT_ALIAS_DEPTH: 'x' } })).toEqual({ code: 0, stdout: '1\n', stderr: '' });
    for (const name of ['loopy', 'depth']) await h.cli(['alias', 'delete', name]);
  });

  it("counts ! aliases nested through real tkt runs, and the refusal deep inside is every run's exit code", async () => {
    // The nested runs are the built CLI's: a bare run of this file builds dist/ first when it is missing (hence the time-out).
    await ensureBuilt();
    // Bounded by its argument, not by the guard: it ends even if the guard does not.
    const tkt = [process.execPath, BIN].map(shellWord).join(' ');
    const nest = `!if [ "$1" -gt 0 ]; then ${tkt} nest $(($1 - 1)); else echo "depth $TKT_ALIAS_DEPTH"; fi`;
    expect((await h.cli(['alias', 'set', 'nest', nest])).code).toBe(0);
    const path = { PATH: process.env.PATH! };
    expect(await h.cli(['nest', '3'], { env: path })).toEqual({ code: 0, stdout: 'depth 4\n', stderr: '' });
    // Started 8 deep, the third nested tkt is refused.
    const refused = await h.cli(['nest', '3'], { env: { ...path, TKT_ALIAS_DEPTH: '8' } });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('error: alias nest is a shell alias run inside 10 others (TKT_ALIAS_DEPTH=10)');
    await h.cli(['alias', 'delete', 'nest']);
  }, 120_000);

  it('refuses to shadow a command, a command alias or a help topic (exit 2), and lists and deletes aliases', async () => {
    for (const name of ['list', 'view', 'help', 'alias']) {
      const result = await h.cli(['alias', 'set', name, 'status']);
      expect(result.code, name).toBe(2);
      expect(result.stderr).toContain(`"${name}" is a tkt command`);
    }
    // A help topic's help would win over the alias's (tkt help formatting, tkt formatting --help).
    for (const name of ['environment', 'exit-codes', 'formatting']) {
      const result = await h.cli(['alias', 'set', name, 'status']);
      expect(result.code, name).toBe(2);
      expect(result.stderr).toContain(`error: "${name}" is a tkt help topic: an alias cannot shadow it\nhint: choose another name\n`);
    }
    expect(readAliases(createConfigStore(h.configDir), builtinNames()).aliases).not.toHaveProperty('formatting');
    await h.cli(['alias', 'set', 'mine', 'list --view my-open-tickets']);
    const list = await h.cli(['alias', 'list', '--json']);
    expect(JSON.parse(list.stdout)).toEqual(expect.arrayContaining([{ name: 'mine', expansion: 'list --view my-open-tickets' }]));
    expect((await h.cli(['alias', 'list'])).stdout).toContain('mine: list --view my-open-tickets\n');
    const mine = await h.cli(['mine', '-q', '--limit', '100']);
    expect(mine.code, mine.stderr).toBe(0);
    expect(mine.stdout).toBe((await h.cli(['list', '-q', '--limit', '100', '--view', 'my-open-tickets'])).stdout);

    // Completion offers them where a command goes.
    expect((await h.cli(['__complete', 'alias'])).stdout.split('\n')).toContain('mine');
    for (const shell of ['bash', 'zsh', 'fish']) expect((await h.cli(['completion', shell])).stdout, shell).toContain('tkt __complete alias');

    expect((await h.cli(['alias', 'delete', 'mine'])).stdout).toBe('Deleted alias mine\n');
    expect((await h.cli(['alias', 'list', '-q'])).stdout).not.toContain('mine');
    const gone = await h.cli(['mine']);
    expect(gone.code).toBe(2);
    expect((await h.cli(['alias', 'delete', 'mine'])).code).toBe(2);
  });

  it('offers the alias a misspelt name to delete means, as a misspelt command or template is offered', async () => {
    await h.cli(['alias', 'set', 'mine', 'list --view my-open-tickets']);
    try {
      // The aliases listed are all the saved ones: other tests' too.
      const listed = `  aliases: ${(await h.cli(['alias', 'list', '-q'])).stdout.trim().split('\n').join(', ')}\n`;
      const typo = await h.cli(['alias', 'delete', 'mien']);
      expect({ code: typo.code, stderr: typo.stderr }).toEqual({ code: 2, stderr: `error: no alias "mien"\n${listed}hint: did you mean mine?\n` });
      // Nothing near: the list alone.
      expect((await h.cli(['alias', 'delete', 'zzzz'])).stderr).toBe(`error: no alias "zzzz"\n${listed}`);
    } finally {
      await h.cli(['alias', 'delete', 'mine']);
    }
  });

  it('replaces an alias only with --clobber (exit 2 naming it, its expansion and --clobber), as gh does', async () => {
    expect((await h.cli(['alias', 'set', 'cl', 'list --view my-open-tickets'])).code).toBe(0);
    const refused = await sendsNothing(h, () => h.cli(['alias', 'set', 'cl', 'list --limit 5']));
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('error: alias cl already exists: list --view my-open-tickets\n');
    expect(refused.stderr).toContain("hint: --clobber replaces it: tkt alias set cl 'list --limit 5' --clobber\n");
    expect(readAliases(createConfigStore(h.configDir), builtinNames()).aliases.cl).toBe('list --view my-open-tickets');
    const clobbered = await h.cli(['alias', 'set', 'cl', 'list --limit 5', '--clobber']);
    expect(clobbered.code, clobbered.stderr).toBe(0);
    expect(clobbered.stdout).toBe('Changed alias cl: list --limit 5\n');
    expect(readAliases(createConfigStore(h.configDir), builtinNames()).aliases.cl).toBe('list --limit 5');
    await h.cli(['alias', 'delete', 'cl']);
  });

  it('says a name is ASCII letters, digits, - and _, starting with a letter or digit (ü is a letter, but not one an alias name takes)', async () => {
    const result = await h.cli(['alias', 'set', 'übernehmen', 'pickup $1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: invalid alias name "übernehmen": ASCII letters, digits, "-" and "_", starting with a letter or digit, e.g. mine\n');
    // The name is only those characters: the rule it breaks is the first one's.
    for (const name of ['_x', '-x']) {
      const first = await h.cli(['alias', 'set', '--', name, 'list']);
      expect(first.code, name).toBe(2);
      expect(first.stderr).toContain(`error: invalid alias name "${name}": ASCII letters, digits, "-" and "_", starting with a letter or digit, e.g. mine\n`);
    }
  });

  it('refuses words or options, global ones too, typed unquoted after the expansion (exit 2 with the quoted line), never saving part of it', async () => {
    for (const [argv, hint] of [
      [['alias', 'set', 'un', 'list', '--profile', 'viewer'], "tkt alias set un 'list --profile viewer'"],
      [['alias', 'set', 'un', 'list', '--timeout', '5'], "tkt alias set un 'list --timeout 5'"],
      [['alias', 'set', 'un', 'list', '-q'], "tkt alias set un 'list -q'"],
      [['alias', 'set', 'un', 'list', '--json', '--clobber'], "tkt alias set un 'list --json' --clobber"],
      [['alias', 'set', 'un', 'list', '--limit', '1'], "tkt alias set un 'list --limit 1'"],
      [['--json', 'alias', 'set', 'un', 'list', '--', '-q'], "tkt --json alias set un 'list -q'"],
    ] as const) {
      const refused = await h.cli([...argv]);
      expect(refused.code, argv.join(' ')).toBe(2);
      expect(refused.stdout).toBe('');
      // The quoted line always; tkt's own options there may be the run's, so moving them is offered first.
      expect(refused.stderr, argv.join(' ')).toMatch(
        new RegExp(
          `\\nhint: (put tkt's own options before the command: [^\\n]*; or, to save them in the expansion, )?quote the expansion: ${hint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`,
        ),
      );
    }
    const moved = await h.cli(['alias', 'set', 'un', 'list', '--profile', 'viewer']);
    expect(moved.stderr).toContain(
      "hint: put tkt's own options before the command: tkt --profile viewer alias set un list; or, to save them in the expansion, quote the expansion: tkt alias set un 'list --profile viewer'\n",
    );
    expect(readAliases(createConfigStore(h.configDir), builtinNames()).aliases).not.toHaveProperty('un');
    // Global options before the command's word are the run's own.
    const before = await h.cli(['-q', '--profile', 'viewer', 'alias', 'set', 'un', 'list', '--clobber']);
    expect(before.code, before.stderr).toBe(0);
    expect(readAliases(createConfigStore(h.configDir), builtinNames()).aliases.un).toBe('list');
    await h.cli(['alias', 'delete', 'un']);
  });

  it('refuses options typed between the name and the expansion (exit 2 with the line to type), never saving part of it', async () => {
    const quiet = await h.cli(['alias', 'set', 'bx', '-q', 'list']);
    expect(quiet).toMatchObject({ code: 2, stdout: '' });
    expect(quiet.stderr).toContain(`error: tkt alias set takes the expansion as one argument: "-q" comes before "list"
hint: put tkt's own options before the command: tkt -q alias set bx list; or, to save them in the expansion, quote the expansion: tkt alias set bx 'list -q'
`);
    // A command's option is no run's: only the quoted line.
    const limit = await h.cli(['alias', 'set', 'bx', '--limit', '5', 'list', '--clobber']);
    expect(limit.code).toBe(2);
    expect(limit.stderr).toContain("hint: quote the expansion: tkt alias set bx 'list --limit 5' --clobber\n");
    expect(readAliases(createConfigStore(h.configDir), builtinNames()).aliases).not.toHaveProperty('bx');
    // --clobber there is alias set's own.
    expect((await h.cli(['alias', 'set', 'bx', '--clobber', 'list'])).code).toBe(0);
    await h.cli(['alias', 'delete', 'bx']);
  });

  it('adds --clobber to the line it hints for an unquoted expansion when the alias exists: the line works', async () => {
    for (const [argv, hint] of [
      [['alias', 'set', 'ex', 'list', '--limit', '5'], "quote the expansion: tkt alias set ex 'list --limit 5' --clobber\n"],
      [
        ['alias', 'set', 'ex', 'list', '--profile', 'viewer'],
        "put tkt's own options before the command: tkt --profile viewer alias set ex list --clobber; or, to save them in the expansion, quote the expansion: tkt alias set ex 'list --profile viewer' --clobber\n",
      ],
      [['alias', 'set', 'ex', '--limit', '5', 'list'], "quote the expansion: tkt alias set ex 'list --limit 5' --clobber\n"],
      [['alias', 'set', 'ex', '-q', 'list'], "quote the expansion: tkt alias set ex 'list -q' --clobber\n"],
      [['alias', 'set', 'ex', 'list', '--limit', '5', '--clobber'], "quote the expansion: tkt alias set ex 'list --limit 5' --clobber\n"],
      [['alias', 'set', 'ex', '--json list'], "global options go after the command: tkt alias set ex 'list --json' --clobber\n"],
      [['alias', 'set', 'ex', 'lsit'], 'tkt alias set ex list --clobber\n'],
    ] as const) {
      await createConfigStore(h.configDir).saveSettings({ aliases: { ex: 'status' } });
      const refused = await h.cli([...argv]);
      expect(refused.code, argv.join(' ')).toBe(2);
      expect(refused.stderr, argv.join(' ')).toContain(hint);
      // The last line hinted, typed, replaces the alias.
      const line = /(tkt [^;]*?)\n$/.exec(refused.stderr.split('hint: ')[1]!)?.[1];
      const [tkt, ...typed] = splitWords(line!.slice(line!.lastIndexOf('tkt ')));
      expect(tkt).toBe('tkt');
      const fixed = await h.cli(typed);
      expect(fixed.code, `${line}: ${fixed.stderr}`).toBe(0);
      expect(readAliases(createConfigStore(h.configDir), builtinNames()).aliases.ex, line).not.toBe('status');
    }
    await createConfigStore(h.configDir).saveSettings({ aliases: {} });
  });

  it("takes options before the name as the run's (no expansion has started): -q silences alias set, the expansion is saved whole", async () => {
    const quiet = await h.cli(['alias', 'set', '-q', 'bx', 'list --view mine']);
    expect(quiet).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readAliases(createConfigStore(h.configDir), builtinNames()).aliases).toMatchObject({ bx: 'list --view mine' });
    await h.cli(['alias', 'delete', 'bx']);
  });

  it("refuses another command's option before the name (exit 2 with the line that quotes it in the expansion), saving nothing", async () => {
    for (const [argv, hint] of [
      [['alias', 'set', '--limit', '5', 'bx', 'list'], "tkt alias set bx 'list --limit 5'"],
      [['alias', 'set', '--limit=5', 'bx', 'list --json'], "tkt alias set bx 'list --json --limit=5'"],
      // tkt's own options and --clobber stay where they are: they are the run's and alias set's.
      [['alias', 'set', '-q', '--dry-run', 'bx', 'resolve', '$1', '--clobber'], "tkt alias set -q bx 'resolve $1 --dry-run' --clobber"],
      [['alias', 'set', '--details', 'Fixed it', 'bx', 'resolve $1'], `tkt alias set bx 'resolve $1 --details "Fixed it"'`],
    ] as const) {
      const refused = await h.cli([...argv]);
      expect(refused.code, argv.join(' ')).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr, argv.join(' ')).toContain(
        `is no option of tkt alias set: an alias's options go in its expansion, after the command\nhint: quote the expansion: ${hint}\n`,
      );
    }
    // No expansion to put it in: the line's shape.
    const alone = await h.cli(['alias', 'set', '--limit', '5', 'bx']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain(`error: "--limit" is no option of tkt alias set`);
    expect(alone.stderr).toContain("hint: quote the expansion: tkt alias set NAME 'COMMAND ... --limit ...'\n");
    expect(readAliases(createConfigStore(h.configDir), builtinNames()).aliases).not.toHaveProperty('bx');
    expect(readAliases(createConfigStore(h.configDir), builtinNames()).aliases).not.toHaveProperty('5');
    // The line to type saves it.
    expect((await h.cli(['alias', 'set', 'bx', 'list --limit 5'])).code).toBe(0);
    expect(readAliases(createConfigStore(h.configDir), builtinNames()).aliases).toMatchObject({ bx: 'list --limit 5' });
    await h.cli(['alias', 'delete', 'bx']);
    const help = await h.cli(['alias', 'set', '--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('Usage: tkt alias set [options] <name> <expansion>');
  });

  it('keeps every alias of eight `tkt alias set` at once, and of deletes among them', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `par${i}`);
    const set = await Promise.all(names.map((name, i) => h.cli(['alias', 'set', name, `show ${1001 + i}`])));
    expect(set.map((result) => result.code)).toEqual(names.map(() => 0));
    const listed = (await h.cli(['alias', 'list', '--json'])).stdout;
    expect((JSON.parse(listed) as Array<{ name: string }>).map((alias) => alias.name).filter((name) => name.startsWith('par'))).toEqual(names);

    const deleted = await Promise.all(names.slice(0, 4).map((name) => h.cli(['alias', 'delete', name])));
    expect(deleted.map((result) => result.code)).toEqual([0, 0, 0, 0]);
    const left = (JSON.parse((await h.cli(['alias', 'list', '--json'])).stdout) as Array<{ name: string }>).map((alias) => alias.name);
    expect(left.filter((name) => name.startsWith('par'))).toEqual(names.slice(4));
  });

  it('refuses, before saving, an expansion that does not start with a tkt command: an unknown word, an alias, an option', async () => {
    expect((await h.cli(['alias', 'set', 'mine', 'list --view my-open-tickets'])).code).toBe(0);
    const unknown = await h.cli(['alias', 'set', 'bad', 'nosuch 1']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('error: alias bad must start with a tkt command: "nosuch" is none');
    expect(unknown.stderr).toContain("shell command: tkt alias set bad '!nosuch 1'");

    const ofAlias = await h.cli(['alias', 'set', 'm2', 'mine --limit 5']);
    expect(ofAlias.code).toBe(2);
    expect(ofAlias.stderr).toContain('error: alias m2 must start with a tkt command: "mine" is an alias');
    expect(ofAlias.stderr).toContain("hint: use what mine stands for: tkt alias set m2 'list --view my-open-tickets --limit 5'");

    // Without "--" the expansion reads as an option: it reaches the check all the same.
    for (const argv of [
      ['alias', 'set', 'j', '--json list --limit 1'],
      ['alias', 'set', 'j', '--', '--json list --limit 1'],
    ]) {
      const optionFirst = await h.cli(argv);
      expect(optionFirst.code, argv.join(' ')).toBe(2);
      expect(optionFirst.stderr).toContain('error: alias j must start with a tkt command, not the option --json');
      expect(optionFirst.stderr).toContain("hint: global options go after the command: tkt alias set j 'list --limit 1 --json'");
    }
    // A quoted expansion that starts with a short option is the expansion too, never tkt's own -q
    // (or -h) with the rest as the expansion; also with a global option after it.
    for (const argv of [
      ['alias', 'set', 'j', '-q list'],
      ['alias', 'set', 'j', '-q list', '--json'],
      ['--profile', 'default', 'alias', 'set', 'j', '-q list'],
      ['alias', 'set', 'j', '--', '-q list'],
    ]) {
      const shortFirst = await h.cli(argv);
      expect(shortFirst.code, argv.join(' ')).toBe(2);
      expect(shortFirst.stderr, argv.join(' ')).toContain('error: alias j must start with a tkt command, not the option -q\n');
      expect(shortFirst.stderr, argv.join(' ')).toContain("hint: global options go after the command: tkt alias set j 'list -q'\n");
    }
    const help = await h.cli(['alias', 'set', 'j', '-h list']);
    expect(help.code).toBe(2);
    expect(help.stderr).toContain("hint: global options go after the command: tkt alias set j 'list -h'\n");
    const withValue = await h.cli(['alias', 'set', 'j', '--profile "my work" list']);
    expect(withValue.stderr).toContain(`tkt alias set j 'list --profile "my work"'`);

    const saved = (await h.cli(['alias', 'list', '-q'])).stdout.split('\n');
    expect(saved).toContain('mine');
    for (const refused of ['bad', 'm2', 'j']) expect(saved).not.toContain(refused);
    // A command's alias and a shell command are fine.
    expect((await h.cli(['alias', 'set', 'v', 'view'])).code).toBe(0);
    expect((await h.cli(['alias', 'set', 'm3', '!tkt mine "$@"'])).code).toBe(0);
    for (const name of ['mine', 'v', 'm3']) await h.cli(['alias', 'delete', name]);
  });

  it('names the alias and its expansion when a saved one (hand-edited, or from an older tkt) cannot run', async () => {
    await createConfigStore(h.configDir).saveSettings({ aliases: { mine: 'list --view my-open-tickets', m2: 'mine', bad: 'nosuch 1' } });
    const bad = await sendsNothing(h, () => h.cli(['bad', '2']));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('error: alias bad must start with a tkt command: "nosuch" is none\n  bad: nosuch 1\n');
    const ofAlias = await sendsNothing(h, () => h.cli(['m2']));
    expect(ofAlias.code).toBe(2);
    expect(ofAlias.stderr).toContain('error: alias m2 must start with a tkt command: "mine" is an alias\n  m2: mine\n');
    expect(ofAlias.stderr).toContain("hint: use what mine stands for: tkt alias set m2 'list --view my-open-tickets'");
    await createConfigStore(h.configDir).saveSettings({ aliases: {} });
  });

  it('counts a saved alias that starts with no tkt command as one that cannot run everywhere; tkt help NAME says why, as running it does', async () => {
    const aliases = { mine: 'list --view my-open-tickets', m2: 'mine', bad: 'nosuch 1', self: 'self -q' };
    await createConfigStore(h.configDir).saveSettings({ aliases });
    const listed = await h.cli(['alias', 'list']);
    expect(listed.stdout).toBe('mine: list --view my-open-tickets\n');
    expect(listed.stderr).toContain(`warning: alias bad: it starts with "nosuch", no tkt command: tkt alias set bad 'COMMAND ...', or tkt alias delete bad\n`);
    expect(listed.stderr).toContain(
      `warning: alias m2: it starts with the alias mine, not a tkt command: tkt alias set m2 'COMMAND ...', or tkt alias delete m2\n`,
    );
    const help = await h.cli(['--help']);
    expect(help.stdout).toContain('\n  bad   (cannot run: it starts with "nosuch", no tkt command; see tkt alias list)\n');
    expect(help.stdout).toContain('\n  m2    (cannot run: it starts with the alias mine, not a tkt command; see tkt alias list)\n');
    expect((await h.cli(['__complete', 'alias'])).stdout).toBe('mine\n');
    for (const name of ['bad', 'm2', 'self']) {
      const ran = await sendsNothing(h, () => h.cli([name]));
      const helped = await h.cli(['help', name]);
      expect(ran.code, name).toBe(2);
      expect(helped, name).toEqual(ran);
    }
    // Mended without --clobber, as any alias that cannot run.
    expect((await h.cli(['alias', 'set', 'bad', 'list -q'])).code).toBe(0);
    await createConfigStore(h.configDir).saveSettings({ aliases: {} });
  });

  it('lists the good aliases and warns of those whose expansion is no text or empty (hand-edited); running one is exit 2 naming it and the file', async () => {
    const file = settingsFileIn(h.configDir);
    await createConfigStore(h.configDir).saveSettings({ aliases: { mine: 'list --view my-open-tickets', team: 5, empty: '', gone: null } });
    const listed = await h.cli(['alias', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toBe('mine: list --view my-open-tickets\n');
    expect(listed.stderr).toContain("warning: alias team: its expansion is not text (5): tkt alias set team 'COMMAND ...', or tkt alias delete team\n");
    expect(listed.stderr).toContain('warning: alias empty: its expansion is empty');
    expect(listed.stderr).toContain('warning: alias gone: its expansion is not text (null)');
    for (const name of ['team', 'empty', 'gone']) {
      const run = await sendsNothing(h, () => h.cli([name]));
      expect(run.code, name).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`error: alias ${name} in ${file} cannot run: its expansion is`);
      expect(run.stderr).toContain(`hint: tkt alias set ${name} 'COMMAND ...', or tkt alias delete ${name}`);
    }
    const help = await h.cli(['--help']);
    expect(help.stdout).toContain('\n  team   (cannot run: its expansion is not text (5); see tkt alias list)\n');
    expect(help.stdout).toContain('mine   list --view my-open-tickets');
    // The hinted commands mend them.
    expect((await h.cli(['alias', 'delete', 'team'])).code).toBe(0);
    expect((await h.cli(['alias', 'set', 'empty', 'list -q'])).stdout).toBe('Changed alias empty: list -q\n');
    expect(createConfigStore(h.configDir).getSettings().aliases).toEqual({ mine: 'list --view my-open-tickets', empty: 'list -q', gone: null });
    await createConfigStore(h.configDir).saveSettings({ aliases: {} });
  });

  it("warns, as of an alias that cannot run, of one saved under a built-in command's name (hand-edited), which the command hides", async () => {
    await createConfigStore(h.configDir).saveSettings({ aliases: { mine: 'list --view my-open-tickets', list: 'status', view: 5 } });
    const listed = await h.cli(['alias', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toBe('mine: list --view my-open-tickets\n');
    expect(listed.stderr).toContain(
      'warning: alias list: the tkt command list runs instead, as a built-in always wins: keep it under another name: tkt alias set NAME status, then tkt alias delete list\n',
    );
    // An expansion that could not run anyway: only removing it is offered.
    expect(listed.stderr).toContain('warning: alias view: the tkt command view runs instead, as a built-in always wins: tkt alias delete view\n');
    // -q and --json keep their shape: the aliases that run.
    expect((await h.cli(['alias', 'list', '-q'])).stdout).toBe('mine\n');
    expect(JSON.parse((await h.cli(['alias', 'list', '--json'])).stdout)).toEqual([{ name: 'mine', expansion: 'list --view my-open-tickets' }]);
    const help = await h.cli(['--help']);
    expect(help.stdout).toContain('\n  list  (cannot run: the tkt command list runs instead, as a built-in always wins; see tkt alias list)\n');
    // The hinted commands mend it.
    expect((await h.cli(['alias', 'set', 'st', 'status'])).code).toBe(0);
    expect((await h.cli(['alias', 'delete', 'list'])).code).toBe(0);
    expect((await h.cli(['alias', 'delete', 'view'])).code).toBe(0);
    expect(createConfigStore(h.configDir).getSettings().aliases).toEqual({ mine: 'list --view my-open-tickets', st: 'status' });
    await createConfigStore(h.configDir).saveSettings({ aliases: {} });
  });

  it('says, naming the file, that aliases which are no object cannot be read, and never rewrites them (exit 1)', async () => {
    const file = settingsFileIn(h.configDir);
    await createConfigStore(h.configDir).saveSettings({ aliases: ['mine'] as unknown as Record<string, string> });
    for (const argv of [['alias', 'list'], ['alias', 'set', 'x', 'list'], ['alias', 'delete', 'mine'], ['mine']]) {
      const run = await h.cli(argv);
      expect(run.code, argv.join(' ')).toBe(1);
      expect(run.stderr).toContain(`error: the aliases in ${file} are not an object of names and expansions: ["mine"]`);
    }
    expect(createConfigStore(h.configDir).getSettings().aliases).toEqual(['mine']);
    await createConfigStore(h.configDir).saveSettings({ aliases: {} });
  });

  it("says, after a usage error of an alias's command line, that it came from the alias", async () => {
    expect((await h.cli(['alias', 'set', 'lim', 'list --limt 5'])).code).toBe(0);
    const typo = await sendsNothing(h, () => h.cli(['lim']));
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("error: unknown option '--limt'");
    expect(typo.stderr).toMatch(/\(from alias lim: list --limt 5\)\n$/);
    // A usage error of the command's own run too, and none for a command line typed in full.
    expect((await h.cli(['alias', 'set', 'v', 'list --view $1'])).code).toBe(0);
    const view = await sendsNothing(h, () => h.cli(['v', 'nosuch']));
    expect(view.code).toBe(2);
    expect(view.stderr).toContain('error: unknown view "nosuch"');
    expect(view.stderr).toMatch(/\(from alias v: list --view \$1\)\n$/);
    expect((await h.cli(['list', '--limt', '5'])).stderr).not.toContain('from alias');
    await createConfigStore(h.configDir).saveSettings({ aliases: {} });
  });

  it("hints at an alias's unquoted argument with the arguments to type, not the line they made", async () => {
    const aliases = {
      fixed: 'resolve $1 --details "Fixed: $2"',
      rd: 'resolve 1029 --details "$1 $10"',
      tn: 'resolve $1 --details Fixed toner',
      find: 'list --search $1',
    };
    for (const [name, expansion] of Object.entries(aliases)) expect((await h.cli(['alias', 'set', name, expansion])).code).toBe(0);

    const fixed = await sendsNothing(h, () => h.cli(['fixed', '1029', 'toner', 'extra', '--dry-run']));
    expect(fixed.code).toBe(2);
    expect(fixed.stderr).toContain(`error: --details took "Fixed: toner" only: "extra" would be read as ticket IDs
hint: quote an argument with spaces: tkt fixed 1029 'toner extra' --dry-run
(from alias fixed: resolve $1 --details "Fixed: $2")`);
    // Words no placeholder took, after a value that took $1 and $10: no line of them makes that value.
    const rd = await sendsNothing(h, () => h.cli(['rd', ...'abcdefghij'.split(''), '--dry-run']));
    expect(rd.code).toBe(2);
    expect(rd.stderr).toContain('hint: "b c d e f g h i" fill no placeholder of alias rd: the arguments left over are added after what it stands for\n');
    // The value is the alias's own: it is the alias that needs the quotes.
    const tn = await sendsNothing(h, () => h.cli(['tn', '1029', '--dry-run']));
    expect(tn.stderr).toContain('hint: quote a value with spaces in alias tn: --details "Fixed toner"\n');
    // A command that takes no IDs: commander's excess arguments.
    const find = await sendsNothing(h, () => h.cli(['find', 'printer', 'jam']));
    expect(find.code).toBe(2);
    expect(find.stderr).toContain("hint: quote an argument with spaces: tkt find 'printer jam'\n");
    for (const argv of [fixed, rd, tn, find]) expect(argv.stderr).not.toContain('quote a value with spaces: --');
    await createConfigStore(h.configDir).saveSettings({ aliases: {} });
  });

  it('says which words after a value fill a placeholder and which fill none, by their place, not their text', async () => {
    expect((await h.cli(['alias', 'set', 'x3', 'resolve 1029 --details $1 $3'])).code).toBe(0);
    // $3 takes "b", "c" is left over: only "c" fills no placeholder.
    const mixed = await sendsNothing(h, () => h.cli(['x3', 'a', 'c', 'b', '--dry-run']));
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain(`error: --details took "a" only: "b c" would be read as ticket IDs
hint: "b" fills $3 of alias x3, which stands after --details's value; "c" fills no placeholder of alias x3: the arguments left over are added after what it stands for
`);
    // The same word typed for $3 and left over: told apart by where it stands.
    const twice = await sendsNothing(h, () => h.cli(['x3', 'a', 'c', 'c', '--dry-run']));
    expect(twice.stderr).toContain(`hint: "c" fills $3 of alias x3, which stands after --details's value; "c" fills no placeholder of alias x3`);
    // Every word after the value is a placeholder's: none is said to fill no placeholder.
    expect((await h.cli(['alias', 'set', 'x4', 'resolve 1029 --details $1 $3 --dry-run'])).code).toBe(0);
    const placed = await sendsNothing(h, () => h.cli(['x4', 'a "b"', 'c', 'd e']));
    expect(placed.code).toBe(2);
    expect(placed.stderr).toContain(`hint: "d e" fills $3 of alias x4, which stands after --details's value\n`);
    expect(placed.stderr).not.toContain('no placeholder');
    await createConfigStore(h.configDir).saveSettings({ aliases: {} });
  });

  it('warns at alias set of a ~ or $VAR that no shell will expand, and not in a shell alias', async () => {
    const tilde = await h.cli(['alias', 'set', 'att', 'reply $1 --attach ~/report.pdf']);
    expect(tilde.code).toBe(0);
    expect(tilde.stderr).toContain('warning: the expansion holds "~": tkt does not expand it as a shell would; give the full path');
    const variable = await h.cli(['alias', 'set', 'me', 'list --requester $USER']);
    expect(variable.stderr).toContain('warning: the expansion holds "$USER"');
    for (const expansion of ['resolve $1 --details "Fixed: $2"', '!tkt list --requester "$USER"', 'list --search a~b']) {
      expect((await h.cli(['alias', 'set', 'ok', expansion, '--clobber'])).stderr, expansion).toBe('');
    }
    await createConfigStore(h.configDir).saveSettings({ aliases: {} });
  });

  it('counts an alias that starts with its own name, or leads into a loop (hand-edited), as one that cannot run: warned of, shown so, mended without --clobber', async () => {
    const file = settingsFileIn(h.configDir);
    const aliases = { self: 'self -q', r1: 'r2', r2: 'r1', opt: 'r1 --json', mine: 'list --view my-open-tickets' };
    await createConfigStore(h.configDir).saveSettings({ aliases });
    const problems = {
      self: 'it expands to itself',
      r1: 'its expansion loops: r1 -> r2 -> r1',
      r2: 'its expansion loops: r2 -> r1 -> r2',
      opt: 'its expansion loops: opt -> r1 -> r2 -> r1',
    };
    const listed = await h.cli(['alias', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toBe('mine: list --view my-open-tickets\n');
    const help = await h.cli(['--help']);
    for (const [name, problem] of Object.entries(problems)) {
      expect(listed.stderr).toContain(`warning: alias ${name}: ${problem}: tkt alias set ${name} 'COMMAND ...', or tkt alias delete ${name}\n`);
      expect(help.stdout).toContain(`\n  ${name.padEnd(4)}  (cannot run: ${problem}; see tkt alias list)\n`);
      const looped = await sendsNothing(h, () => h.cli([name]));
      expect(looped).toEqual({
        code: 2,
        stdout: '',
        stderr: `error: alias ${name} in ${file} cannot run: ${problem}\nhint: tkt alias set ${name} 'COMMAND ...', or tkt alias delete ${name}\n`,
      });
    }
    // Neither offered by completion nor read as an alias's help, as an empty one is not.
    expect((await h.cli(['__complete', 'alias'])).stdout).toBe('mine\n');
    // The hinted commands mend them: alias set without --clobber, as for an empty one.
    for (const name of Object.keys(problems)) {
      await createConfigStore(h.configDir).saveSettings({ aliases });
      const mended = await h.cli(['alias', 'set', name, 'list -q']);
      expect(mended, name).toEqual({ code: 0, stdout: `Changed alias ${name}: list -q\n`, stderr: '' });
      expect(readAliases(createConfigStore(h.configDir), builtinNames()).aliases[name]).toBe('list -q');
      await createConfigStore(h.configDir).saveSettings({ aliases });
      expect((await h.cli(['alias', 'delete', name])).code, name).toBe(0);
    }
    // A new alias that starts with one of them is told it cannot run, not that no such word exists.
    await createConfigStore(h.configDir).saveSettings({ aliases });
    const onLoop = await h.cli(['alias', 'set', 'r3', 'r1 -q']);
    expect(onLoop.code).toBe(2);
    expect(onLoop.stderr).toContain('error: alias r3 must start with a tkt command: "r1" is an alias that cannot run (its expansion loops: r1 -> r2 -> r1)\n');
    await createConfigStore(h.configDir).saveSettings({ aliases: {} });
  });

  it('follows a loop of aliases no further than a tkt command: an alias named as one (hand-edited) is not in the chain', async () => {
    await createConfigStore(h.configDir).saveSettings({ aliases: { st: 'status', status: 'st' } });
    expect((await h.cli(['alias', 'list', '-q'])).stdout).toBe('st\n');
    expect((await h.cli(['--help'])).stdout).toContain('\n  st      status\n');
    await createConfigStore(h.configDir).saveSettings({ aliases: {} });
  });

  it('hints, for a saved alias that does not start with a tkt command, an alias set line that takes (without --clobber: one that cannot run is mended so)', async () => {
    for (const name of ['m2', 'bad', 'sh']) {
      await createConfigStore(h.configDir).saveSettings({
        aliases: { mine: 'list --view my-open-tickets', m2: 'mine', bad: 'nosuch 1', sh: 'urgent', urgent: '!tkt list -q' },
      });
      const refused = await sendsNothing(h, () => h.cli([name]));
      expect(refused.code, name).toBe(2);
      const hint = /^hint: .*?(tkt alias .*)$/m.exec(refused.stderr)?.[1];
      expect(hint, refused.stderr).toMatch(/^tkt alias set /);
      expect(hint).not.toContain('--clobber');
      const [tkt, ...hinted] = splitWords(hint!);
      expect(tkt).toBe('tkt');
      const fixed = await h.cli(hinted);
      expect(fixed.code, `${hint}: ${fixed.stderr}`).toBe(0);
    }
    await createConfigStore(h.configDir).saveSettings({ aliases: {} });
  });

  it('says that global options go after an alias given after them', async () => {
    expect((await h.cli(['alias', 'set', 'mine', 'list --view my-open-tickets'])).code).toBe(0);
    expect((await h.cli(['alias', 'set', 'fixed', 'resolve $1 --details "Fixed: $2"'])).code).toBe(0);
    const mine = await sendsNothing(h, () => h.cli(['--json', 'mine']));
    expect(mine.code).toBe(2);
    expect(mine.stderr).toBe('error: mine is an alias: global options go after it\n  mine: list --view my-open-tickets\nhint: tkt mine --json\n');
    // A value that is an alias's name is a value (a profile called mine), and the arguments stay first.
    const fixed = await sendsNothing(h, () => h.cli(['--profile', 'mine', 'fixed', '42', 'new toner', '--', 'x']));
    expect(fixed.stderr).toContain("hint: tkt fixed 42 'new toner' --profile mine -- x\n");
    for (const name of ['mine', 'fixed']) await h.cli(['alias', 'delete', name]);
  });

  it('offers an alias for a misspelt command, as it offers a command', async () => {
    await createConfigStore(h.configDir).saveSettings({ aliases: { mine: 'list --view my-open-tickets', fixed: 'resolve $1 --details "Fixed: $2"' } });
    for (const [argv, meant] of [
      [['mien'], 'mine'],
      [['fixd', '1'], 'fixed'],
      [['lsit'], 'list'],
    ] as const) {
      const typo = await sendsNothing(h, () => h.cli([...argv]));
      expect(typo.code, argv.join(' ')).toBe(2);
      expect(typo.stderr).toBe(`error: unknown command '${argv[0]}'\n(Did you mean ${meant}?)\n(add --help for usage)\n`);
    }
    await createConfigStore(h.configDir).saveSettings({ aliases: {} });
  });

  it('says on stderr that there are no aliases, as templates list does; stdout stays empty', async () => {
    await createConfigStore(h.configDir).saveSettings({ aliases: {} });
    // None saved: said on stderr, stdout left empty for scripts; --json prints its empty document.
    expect(await h.cli(['alias', 'list'])).toEqual({
      code: 0,
      stdout: '',
      stderr: `no aliases yet: create one with "tkt alias set NAME 'COMMAND ...'"\n`,
    });
    // -q and --json say nothing more, as templates list does.
    expect(await h.cli(['alias', 'list', '-q'])).toEqual({ code: 0, stdout: '', stderr: '' });
    const json = await h.cli(['alias', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toEqual([]);
    expect(json.stderr).toBe('');
  });

  it('tkt help ALIAS prints the alias, its expansion and the help of its command', async () => {
    expect((await h.cli(['alias', 'set', 'mine', 'list --view my-open-tickets'])).code).toBe(0);
    expect((await h.cli(['alias', 'set', 'urgent', '!tkt list -q | tkt pickup -'])).code).toBe(0);
    const help = await h.cli(['help', 'mine']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^mine is an alias of: tkt list --view my-open-tickets\n\nUsage: tkt list /);
    const shell = await h.cli(['help', 'urgent']);
    expect(shell).toEqual({ code: 0, stdout: 'urgent is an alias of a shell command, run by sh: tkt list -q | tkt pickup -\n', stderr: '' });
    for (const name of ['mine', 'urgent']) await h.cli(['alias', 'delete', name]);
  });

  it('tkt help ALIAS shows the help of the subcommand the expansion names, as tkt help config set does', async () => {
    const cases = [
      ['cs', 'config set', ['config', 'set']],
      ['tok', 'auth token --show', ['auth', 'token']],
      ['tpl', 'templates show $1', ['templates', 'show']],
    ] as const;
    for (const [name, expansion, command] of cases) {
      expect((await h.cli(['alias', 'set', name, expansion])).code).toBe(0);
      const help = await h.cli(['help', name]);
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toBe(`${name} is an alias of: tkt ${expansion}\n\n${(await h.cli(['help', ...command])).stdout}`);
      await h.cli(['alias', 'delete', name]);
    }
  });

  it('tkt ALIAS --help (or -h) prints what tkt help ALIAS does, placeholders unfilled; after -- it is a word', async () => {
    expect((await h.cli(['alias', 'set', 'fixed', 'resolve $1 --details "Fixed: $2"'])).code).toBe(0);
    const expected = await h.cli(['help', 'fixed']);
    expect(expected.stdout).toMatch(/^fixed is an alias of: tkt resolve \$1 --details "Fixed: \$2"\n\nUsage: tkt resolve /);
    for (const argv of [
      ['fixed', '--help'],
      ['fixed', '-h'],
      ['fixed', '42', '--json', '--help'],
    ]) {
      expect(await sendsNothing(h, () => h.cli(argv)), argv.join(' ')).toEqual(expected);
    }
    const ticket = unusedTicket(h, (t) => t.ticketStatusId === OPEN);
    const word = await h.cli(['fixed', String(ticket.id), '--dry-run', '--', '--help']);
    expect(word.code, word.stderr).toBe(0);
    expect(word.stdout).toContain('Fixed: --help');
    expect(ticket.ticketStatusId).toBe(OPEN);
    await h.cli(['alias', 'delete', 'fixed']);

    // A shell alias's script decides what its arguments are, --help too.
    expect((await h.cli(['alias', 'set', 'echoes', '!echo "$@"'])).code).toBe(0);
    expect(await h.cli(['echoes', '--help'], { env: { PATH: process.env.PATH! } })).toMatchObject({ code: 0, stdout: '--help\n' });
    await h.cli(['alias', 'delete', 'echoes']);
  });
});
