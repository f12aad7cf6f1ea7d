import { execFileSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createConfigStore } from '../../src/config/store.js';
import { createLookups } from '../../src/lookups/index.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { useTempDir } from '../helpers/sandbox-state.js';
import { skipWithout } from '../helpers/tools.js';

function hasShell(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('tkt completion', () => {
  let h: Harness;
  let dir: string;
  let bashScript: string;
  useTempDir('tkt-completion-', (path) => (dir = path));
  beforeAll(async () => {
    // A stand-in tkt on PATH, so the bash glue can be tested without the built CLI.
    await writeFile(
      join(dir, 'tkt'),
      [
        '#!/bin/sh',
        `[ "$1" = __complete ] && [ "$2" = site ] && printf 'Head Office\\nHarbour Depot\\nRemote\\n'`,
        `[ "$1" = __complete ] && [ "$2" = assignee ] && printf 'Tom Tech\\ntech\\n'`,
        `[ "$1" = __complete ] && [ "$2" = requester ] && printf "Sam O'Neil\\nsoneil\\n"`,
        `[ "$1" = __complete ] && [ "$2" = profile ] && printf 'default\\nwork\\n'`,
        `[ "$1" = __complete ] && [ "$2" = status ] && printf 'Open\\nOn Hold\\n'`,
        `[ "$1" = __complete ] && [ "$2" = template ] && printf 'printer-fixed\\nwelcome\\n'`,
        // What tkt __complete alias:NAME prints for the aliases of the test below (tkt __complete).
        `[ "$1" = __complete ] && [ "$2" = alias ] && printf 'fixed\\nmine\\nurgent\\n'`,
        `[ "$1" = __complete ] && [ "$2" = alias:mine ] && printf 'list\\n--view\\nmy-open-tickets\\n'`,
        `[ "$1" = __complete ] && [ "$2" = alias:fixed ] && printf 'resolve\\n'`,
        `[ "$1" = __complete ] && [ "$2" = alias:lv ] && printf 'list\\n--view\\n'`,
        `[ "$1" = __complete ] && [ "$2" = alias:urgent ] && printf '!\\n'`,
        '',
      ].join('\n'),
    );
    await chmod(join(dir, 'tkt'), 0o755);
    // The file the shells may offer, from `dir`, where they complete.
    await writeFile(join(dir, 'report.txt'), 'x');
  });
  beforeEach(async () => {
    h = await createHarness();
    const result = await h.cli(['completion', 'bash']);
    expect(result.code).toBe(0);
    bashScript = join(dir, 'tkt.bash');
    await writeFile(bashScript, result.stdout);
  });
  afterEach(() => h.close());

  /** What bash offers for the words typed so far (the last one is being completed). */
  function bashComplete(words: string[]): string[] {
    const script = `source ${JSON.stringify(bashScript)}; COMP_WORDS=(${words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _tkt; printf '%s\\n' "\${COMPREPLY[@]}"`;
    const out = execFileSync('bash', ['-c', script], { cwd: dir, env: { ...process.env, PATH: `${dir}:${process.env.PATH}` }, encoding: 'utf8' });
    return out.split('\n').filter((line) => line !== '');
  }

  it('prints a bash script that parses and registers itself for tkt', () => {
    execFileSync('bash', ['-n', bashScript]);
    const registered = execFileSync('bash', ['-c', `source ${JSON.stringify(bashScript)}; complete -p tkt`], { encoding: 'utf8' });
    expect(registered.trim()).toBe('complete -F _tkt tkt');
  });

  it('completes commands, skipping global options and their values', () => {
    expect(bashComplete(['tkt', 'log'])).toEqual(['login', 'logout']);
    expect(bashComplete(['tkt', '--profile', 'work', 'who'])).toEqual(['whoami']);
    expect(bashComplete(['tkt', ''])).not.toContain('__complete');
  });

  it("completes a command's options, its fixed arguments and list views", () => {
    expect(bashComplete(['tkt', 'login', '--pass'])).toEqual(['--password-stdin']);
    expect(bashComplete(['tkt', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(bashComplete(['tkt', 'list', '--view', 'my-over'])).toEqual(['my-overdue-tickets']);
    expect(bashComplete(['tkt', 'list', '--sort', '-d'])).toEqual(['-due']);
    expect(bashComplete(['tkt', 'list', '--created'])).toEqual(['--created-after', '--created-before']);
    expect(bashComplete(['tkt', 'list', '--cs'])).toEqual(['--csv']);
    expect(bashComplete(['tkt', 'show', '1', '--fie'])).toEqual(['--fields']);
    expect(bashComplete(['tkt', '--que'])).toEqual(['--query']);
  });

  it('completes lookup names through tkt __complete, spaces escaped', () => {
    expect(bashComplete(['tkt', 'create', '--site', 'H'])).toEqual(['Head\\ Office', 'Harbour\\ Depot']);
  });

  it("completes assign's USER after the IDs, never in place of the first ID", () => {
    expect(bashComplete(['tkt', 'assign', '42', '43', 'To'])).toEqual(['Tom\\ Tech']);
    expect(bashComplete(['tkt', 'assign', 'To'])).toEqual([]);
  });

  it('offers @me wherever a person is taken, and none only where it means no assignee (list)', () => {
    expect(bashComplete(['tkt', 'assign', '42', '@'])).toEqual(['@me']);
    expect(bashComplete(['tkt', 'close', '42', '--by', '@'])).toEqual(['@me']);
    expect(bashComplete(['tkt', 'create', '--requester', '@'])).toEqual(['@me']);
    expect(bashComplete(['tkt', 'list', '--assignee', 'n'])).toEqual(['none']);
    expect(bashComplete(['tkt', 'update', '42', '--assignee', 'n'])).toEqual([]);
    expect(bashComplete(['tkt', 'update', '42', '--assignee', ''])).toEqual(['@me', 'Tom\\ Tech', 'tech']);
  });

  it('completes profile names, before the command and after it', () => {
    expect(bashComplete(['tkt', '--profile', 'w'])).toEqual(['work']);
    expect(bashComplete(['tkt', 'list', '--profile', ''])).toEqual(['default', 'work']);
  });

  it('escapes a name for the quote it follows, which readline then closes', () => {
    expect(bashComplete(['tkt', 'create', '--requester', "'sa"])).toEqual(["Sam O'\\''Neil"]);
    expect(bashComplete(['tkt', 'create', '--requester', '"sa'])).toEqual(["Sam O'Neil"]);
    expect(bashComplete(['tkt', 'create', '--requester', 'sa'])).toEqual(["Sam\\ O\\'Neil"]);
  });

  it('completes reply templates, help topics and metadata collections', () => {
    expect(bashComplete(['tkt', 'templates', 'show', 'pr'])).toEqual(['printer-fixed']);
    expect(bashComplete(['tkt', 'templates', 'edit', ''])).toEqual(['printer-fixed', 'welcome']);
    expect(bashComplete(['tkt', 'templates', 'list', ''])).toEqual([]);
    expect(bashComplete(['tkt', 'reply', '42', '--template', 'w'])).toEqual(['welcome']);
    expect(bashComplete(['tkt', 'resolve', '42', '--template', 'pr'])).toEqual(['printer-fixed']);
    expect(bashComplete(['tkt', 'help', 'exit'])).toEqual(['exit-codes']);
    expect(bashComplete(['tkt', 'help', 'pick'])).toEqual(['pickup']);
    expect(bashComplete(['tkt', 'metadata', '--collection', 'sit'])).toEqual(['sites']);
  });

  it('completes the value of --option=value, however readline splits the word', () => {
    // bash splits at "=" when COMP_WORDBREAKS holds it (its default), else not.
    expect(bashComplete(['tkt', 'list', '--status', '=', 'On'])).toEqual(['On\\ Hold']);
    expect(bashComplete(['tkt', 'list', '--status', '=', ''])).toEqual(['Open', 'On\\ Hold']);
    expect(bashComplete(['tkt', 'list', '--status=On'])).toEqual(['--status=On\\ Hold']);
    expect(bashComplete(['tkt', 'list', '--sort', '=', '-d'])).toEqual(['-due']);
    expect(bashComplete(['tkt', '--profile', '=', 'w'])).toEqual(['work']);
    // A global option's value given with "=" is not the command.
    expect(bashComplete(['tkt', '--profile', '=', 'work', 'list', '--vi'])).toEqual(['--view']);
  });

  it('completes after an alias as after what it stands for', () => {
    expect(bashComplete(['tkt', 'mi'])).toEqual(['mine']);
    expect(bashComplete(['tkt', 'mine', '--li'])).toEqual(['--limit']);
    expect(bashComplete(['tkt', 'mine', '--assignee', 'n'])).toEqual(['none']);
    expect(bashComplete(['tkt', 'fixed', '1013', '--dr'])).toEqual(['--dry-run']);
    expect(bashComplete(['tkt', 'fixed', '1013', 'toner', '--by', 'To'])).toEqual(['Tom\\ Tech']);
    expect(bashComplete(['tkt', 'fixed', '1013', '--by=To'])).toEqual(['--by=Tom\\ Tech']);
    // The alias is the word before the cursor: its expansion's last word is.
    expect(bashComplete(['tkt', 'lv', 'my-over'])).toEqual(['my-overdue-tickets']);
    // A shell alias's arguments are its script's: files.
    expect(bashComplete(['tkt', 'urgent', 'rep'])).toEqual(['report.txt']);
    // Only the first word is an alias.
    expect(bashComplete(['tkt', '--json', 'mine', '--li'])).not.toContain('--limit');
  });

  it('completes the NAME of alias delete and alias set, and an alias after help, with the aliases', () => {
    expect(bashComplete(['tkt', 'alias', 'delete', ''])).toEqual(['fixed', 'mine', 'urgent']);
    expect(bashComplete(['tkt', 'alias', 'delete', 'u'])).toEqual(['urgent']);
    expect(bashComplete(['tkt', 'alias', 'set', 'm'])).toEqual(['mine']);
    // The expansion is a command line, never an alias.
    expect(bashComplete(['tkt', 'alias', 'set', 'mine', ''])).toEqual([]);
    expect(bashComplete(['tkt', 'alias', 'list', ''])).toEqual([]);
    expect(bashComplete(['tkt', 'help', 'fi'])).toEqual(['fixed']);
    expect(bashComplete(['tkt', 'help', 'mi'])).toEqual(['mine']);
  });

  it("completes attach's FILE after the ID, never in place of it", () => {
    expect(bashComplete(['tkt', 'attach', '12', 'rep'])).toEqual(['report.txt']);
    expect(bashComplete(['tkt', 'attach', 'rep'])).toEqual([]);
  });

  it.skipIf(skipWithout(['fish'], 'test/commands/completion.test.ts (fish)'))(
    "completes attach's FILE in fish after the ID, never in place of it",
    async () => {
      const result = await h.cli(['completion', 'fish']);
      await writeFile(join(dir, 'tkt.fish'), result.stdout);
      // fish's own completion of a command line, without a terminal.
      const fishComplete = (line: string) =>
        execFileSync('fish', ['-c', `source tkt.fish; complete -C ${JSON.stringify(line)}`], { cwd: dir, encoding: 'utf8' });

      expect(fishComplete('tkt attach 12 rep')).toBe('report.txt\n');
      expect(fishComplete('tkt attach rep')).toBe('');
    },
  );

  it.skipIf(skipWithout(['fish'], 'test/commands/completion.test.ts (fish)'))(
    'completes the NAME of alias delete and alias set, and an alias after help, in fish',
    async () => {
      const result = await h.cli(['completion', 'fish']);
      await writeFile(join(dir, 'tkt.fish'), result.stdout);
      // The stand-in tkt on PATH answers tkt __complete alias.
      const fishComplete = (line: string) =>
        execFileSync('fish', ['-c', `source tkt.fish; complete -C ${JSON.stringify(line)}`], {
          cwd: dir,
          env: { ...process.env, PATH: `${dir}:${process.env.PATH}` },
          encoding: 'utf8',
        });

      expect(fishComplete('tkt alias delete ')).toBe('fixed\nmine\nurgent\n');
      expect(fishComplete('tkt alias set m')).toBe('mine\n');
      expect(fishComplete('tkt alias set mine ')).toBe('');
      expect(fishComplete('tkt help fi')).toBe('fixed\n');
    },
  );

  it('prints zsh and fish scripts naming every command and the lookup helper', async () => {
    for (const shell of ['zsh', 'fish']) {
      const result = await h.cli(['completion', shell]);
      expect(result.code).toBe(0);
      for (const command of ['login', 'logout', 'whoami', 'api', 'completion']) expect(result.stdout).toContain(command);
      expect(result.stdout).toContain('tkt __complete');
      expect(result.stdout).toMatch(/(--|-l )site.*(_tkt_names site|tkt __complete site)/);
      // The hidden command is never offered.
      expect(result.stdout).not.toMatch(/'__complete:|-a __complete /);
      if (hasShell(shell)) {
        const file = join(dir, `tkt.${shell}`);
        await writeFile(file, result.stdout);
        execFileSync(shell, ['-n', file]);
      }
    }
  });

  it('exits 2 for an unknown shell', async () => {
    const result = await h.cli(['completion', 'tcsh']);
    expect(result.code).toBe(2);
  });
});

describe('tkt __complete', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  it('prints nothing and makes no request when nothing is cached', async () => {
    const result = await h.cli(['__complete', 'site']);

    expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('prints the cached names without any request', async () => {
    const warm = await h.context();
    await createLookups(warm.ctx).entries('site');
    await createLookups(warm.ctx).entries('requester');
    h.sandbox.resetStats();

    const sites = await h.cli(['__complete', 'site']);
    const requesters = await h.cli(['__complete', 'requester']);

    expect(sites.code).toBe(0);
    expect(sites.stdout.split('\n').filter(Boolean).sort()).toEqual(h.sandbox.state.lookups.sites.map((s) => s.title).sort());
    const someRequester = h.sandbox.state.users.find((u) => u.role === 'requester')!;
    expect(requesters.stdout.split('\n')).toContain(someRequester.username);
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('prints the profiles of the config folder, logged in (default) or not (work), without any request', async () => {
    // As an older tkt's config set made it.
    await createConfigStore(h.configDir).saveSettings({ pager: 'less' }, 'work');
    h.sandbox.resetStats();

    expect(await h.cli(['__complete', 'profile'])).toEqual({ code: 0, stdout: 'default\nwork\n', stderr: '' });
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('prints the reply templates of the config folder, without any request', async () => {
    expect(await h.cli(['__complete', 'template'])).toEqual({ code: 0, stdout: '', stderr: '' });
    await mkdir(join(h.configDir, 'templates'));
    for (const name of ['welcome', 'printer-fixed']) await writeFile(join(h.configDir, 'templates', `${name}.md`), 'Hello\n');
    h.sandbox.resetStats();

    expect(await h.cli(['__complete', 'template'])).toEqual({ code: 0, stdout: 'printer-fixed\nwelcome\n', stderr: '' });
    expect(h.sandbox.stats.requests).toBe(0);
    // Those `templates list` leaves out are not offered: not UTF-8 (Notepad's "Unicode"), a name still ending in ".md".
    await writeFile(join(h.configDir, 'templates', 'u16.md'), Buffer.from('\ufeffBonjour\r\n', 'utf16le'));
    await writeFile(join(h.configDir, 'templates', 'welcome.md.md'), 'Hello\n');
    expect(await h.cli(['__complete', 'template'])).toEqual({ code: 0, stdout: 'printer-fixed\nwelcome\n', stderr: '' });
  });

  it("prints an alias's words for completion, without the placeholders' nor any request", async () => {
    const aliases = {
      mine: 'list --view my-open-tickets',
      fixed: 'resolve $1 --details "Fixed: $2"',
      lv: 'list --view',
      pick: 'update --priority=$1 $2 --status Open',
      urgent: '!tkt list -q | tkt pickup -',
    };
    for (const [name, expansion] of Object.entries(aliases)) expect((await h.cli(['alias', 'set', name, expansion])).code).toBe(0);
    h.sandbox.resetStats();

    expect(await h.cli(['__complete', 'alias:mine'])).toEqual({ code: 0, stdout: 'list\n--view\nmy-open-tickets\n', stderr: '' });
    expect((await h.cli(['__complete', 'alias:fixed'])).stdout).toBe('resolve\n');
    expect((await h.cli(['__complete', 'alias:lv'])).stdout).toBe('list\n--view\n');
    expect((await h.cli(['__complete', 'alias:pick'])).stdout).toBe('update\n--status\nOpen\n');
    expect((await h.cli(['__complete', 'alias:urgent'])).stdout).toBe('!\n');
    expect((await h.cli(['__complete', 'alias:list'])).stdout).toBe('');
    expect((await h.cli(['__complete', 'alias:toString'])).stdout).toBe('');
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('completes the aliases that can run, and nothing for a hand-edited one that is not text', async () => {
    // Merged beside the check of such aliases, completion called .trim() on a number.
    await createConfigStore(h.configDir).saveSettings({ aliases: { mine: 'list --view my-open-tickets', team: 5, gone: null, empty: ' ' } });
    expect(await h.cli(['__complete', 'alias'])).toEqual({ code: 0, stdout: 'mine\n', stderr: '' });
    expect(await h.cli(['__complete', 'alias:team'])).toEqual({ code: 0, stdout: '', stderr: '' });
    // A hand-edited list where the object of aliases belongs.
    await createConfigStore(h.configDir).saveSettings({ aliases: ['mine'] as unknown as Record<string, unknown> });
    expect(await h.cli(['__complete', 'alias'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('prints nothing for an unknown kind or when not logged in', async () => {
    expect((await h.cli(['__complete', 'planet'])).stdout).toBe('');
    await h.cli(['logout']);
    expect((await h.cli(['__complete', 'site'])).stdout).toBe('');
  });
});
