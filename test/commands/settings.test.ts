// tkt auth token, tkt config and tkt profiles (docs/cli.md section 10).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as runToken } from '../../src/commands/auth.js';
import { run as runProfiles } from '../../src/commands/profiles.js';
import { editorChoice, userSettings } from '../../src/config/settings.js';
import { settingsFileIn } from '../../src/config/paths.js';
import { createConfigStore } from '../../src/config/store.js';
import { loginAs, type Harness } from '../helpers/harness.js';
import { sendsNothing, unusedTicket, useHarness } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({ profiles: ['viewer'] }, (harness) => (h = harness));

const savedToken = (profile = 'default') => createConfigStore(h.configDir).readToken(profile)!.token;

describe('tkt auth token', () => {
  it('prints the token into a pipe, and as JSON with --json', async () => {
    const piped = await h.cli(['auth', 'token']);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toBe(`${savedToken()}\n`);
    const viewer = await h.cli(['--profile', 'viewer', 'auth', 'token', '--query', 'token', '--raw']);
    expect(viewer.stdout).toBe(`${savedToken('viewer')}\n`);
    expect(savedToken('viewer')).not.toBe(savedToken());
    const fromEnv = await h.cli(['auth', 'token'], { env: { TKT_TOKEN: 'env-token' } });
    expect(fromEnv.stdout).toBe('env-token\n');
  });

  it('refuses a terminal without --show (exit 2), prints with it', async () => {
    const tty = await h.context({ tty: true });
    await expect(runToken({ show: false }, tty.ctx)).rejects.toThrow('refusing to print the token to a terminal');
    expect(tty.stdout()).toBe('');
    const shown = await h.context({ tty: true });
    await runToken({ show: true }, shown.ctx);
    expect(shown.stdout()).toBe(`${savedToken()}\n`);
  });

  it('exits 4 when not logged in', async () => {
    const result = await h.cli(['auth', 'token'], { env: { TKT_CONFIG_DIR: join(h.configDir, 'never-logged-in') } });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
  });
});

describe('tkt config', () => {
  it('refuses an empty editor or pager with examples of its own kind (exit 2)', async () => {
    const editor = await h.cli(['config', 'set', 'editor', ' ']);
    expect(editor).toMatchObject({ code: 2, stdout: '' });
    expect(editor.stderr).toContain('error: editor needs a command, e.g. "nano" or "code --wait"');
    const pager = await h.cli(['config', 'set', 'pager', '']);
    expect(pager).toMatchObject({ code: 2, stdout: '' });
    expect(pager.stderr).toContain('error: pager needs a command, e.g. "less -R" or "more"');
  });

  it('refuses words or options, global ones too, typed unquoted after the value (exit 2 with the quoted line), saving nothing', async () => {
    const file = settingsFileIn(h.configDir);
    const before = readFileSync(file, 'utf8');
    for (const [argv, hint] of [
      [['config', 'set', 'editor', 'code', '--wait'], "quote the value: tkt config set editor 'code --wait'"],
      // tkt's own options there may be the run's: the hint offers both.
      [
        ['config', 'set', 'editor', 'nano', '-q'],
        "put tkt's own options before the command: tkt -q config set editor nano; or, to save them in the value, quote the value: tkt config set editor 'nano -q'",
      ],
      [
        ['config', 'set', 'pager', 'less', '--debug'],
        "put tkt's own options before the command: tkt --debug config set pager less; or, to save them in the value, quote the value: tkt config set pager 'less --debug'",
      ],
      [
        ['config', 'set', 'pager', 'less', '--profile', 'viewer'],
        "put tkt's own options before the command: tkt --profile viewer config set pager less; or, to save them in the value, quote the value: tkt config set pager 'less --profile viewer'",
      ],
      [['config', 'set', 'pager', '--', 'less', '-R'], "quote the value: tkt config set pager -- 'less -R'"],
    ] as const) {
      const refused = await h.cli([...argv]);
      expect(refused.code, argv.join(' ')).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr, argv.join(' ')).toContain(`\nhint: ${hint}\n`);
    }
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it("refuses options typed between the key and the value (exit 2 with the line to type), as after it; before the key they are the run's", async () => {
    const file = settingsFileIn(h.configDir);
    const before = readFileSync(file, 'utf8');
    for (const [argv, error, hint] of [
      [
        ['config', 'set', 'editor', '-q', 'nano'],
        'tkt config set takes the value as one argument: "-q" comes before "nano"',
        "put tkt's own options before the command: tkt -q config set editor nano; or, to save them in the value, quote the value: tkt config set editor 'nano -q'",
      ],
      [
        ['config', 'set', 'pager', '--profile', 'viewer', 'less'],
        'tkt config set takes the value as one argument: "--profile viewer" comes before "less"',
        "put tkt's own options before the command: tkt --profile viewer config set pager less; or, to save them in the value, quote the value: tkt config set pager 'less --profile viewer'",
      ],
      [
        ['config', 'set', 'editor', '--wait', 'code'],
        'tkt config set takes the value as one argument: "--wait" comes before "code"',
        "quote the value: tkt config set editor 'code --wait'",
      ],
    ] as const) {
      const refused = await h.cli([...argv]);
      expect(refused.code, argv.join(' ')).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr, argv.join(' ')).toContain(`error: ${error}\nhint: ${hint}\n`);
    }
    expect(readFileSync(file, 'utf8')).toBe(before);
    // Before KEY no value has started: the usage's [options], for the run (quiet, and for profile viewer).
    const quiet = await h.cli(['config', 'set', '-q', '--profile', 'viewer', 'editor', 'nano']);
    expect(quiet).toMatchObject({ code: 0, stdout: '' });
    expect(createConfigStore(h.configDir).getSettings('viewer')).toMatchObject({ editor: 'nano' });
    await h.cli(['--profile', 'viewer', 'config', 'unset', 'editor']);
  });

  it('sets then reads back each setting, globally and per profile', async () => {
    for (const [key, value, expected] of [
      ['editor', 'code --wait', 'code --wait'],
      ['pager', 'more', 'more'],
      ['default-view', 'MyOpenTickets', 'my-open-tickets'],
      ['default-concurrency', '8', '8'],
    ] as const) {
      const set = await h.cli(['config', 'set', key, value], { env: { VISUAL: '', EDITOR: '', PAGER: '' } });
      expect(set.code, set.stderr).toBe(0);
      const get = await h.cli(['config', 'get', key], { env: { VISUAL: '', EDITOR: '', PAGER: '' } });
      expect(get.stdout, key).toBe(`${expected}\n`);
    }
    const perProfile = await h.cli(['--profile', 'viewer', 'config', 'set', 'default-concurrency', '2']);
    expect(perProfile.stdout).toBe('Set default-concurrency to 2 for profile viewer\n');
    expect((await h.cli(['--profile', 'viewer', 'config', 'get', 'default-concurrency'])).stdout).toBe('2\n');
    expect((await h.cli(['config', 'get', 'default-concurrency'], { env: { TKT_PROFILE: 'viewer' } })).stdout).toBe('2\n');
    expect((await h.cli(['config', 'get', 'default-concurrency'])).stdout).toBe('8\n');

    const list = await h.cli(['--profile', 'viewer', 'config', 'list', '--json'], { env: { PAGER: 'less' } });
    expect(JSON.parse(list.stdout)).toEqual([
      { key: 'editor', value: 'code --wait', source: 'global' },
      { key: 'pager', value: 'less', source: '$PAGER' },
      { key: 'default-view', value: 'my-open-tickets', source: 'global' },
      { key: 'default-concurrency', value: 2, source: 'profile viewer' },
      { key: 'web-url', value: null, source: 'default' },
    ]);

    const { ctx } = await h.context({ env: { VISUAL: '', EDITOR: '', PAGER: '' } });
    expect(userSettings(ctx)).toEqual({ pager: 'more', defaultConcurrency: 8, webUrl: undefined });
    expect(editorChoice(ctx).command).toBe('code --wait');

    // list takes the default view when --view is not given.
    const open = await h.cli(['list', '-q', '--limit', '100']);
    const mine = await h.cli(['list', '-q', '--limit', '100', '--view', 'my-open-tickets']);
    expect(open.stdout).toBe(mine.stdout);
    await h.cli(['config', 'unset', 'default-view']);
    const service = await h.cli(['list', '-q', '--limit', '100']);
    expect(open.stdout).not.toBe(service.stdout);
    await h.cli(['config', 'set', 'default-view', 'my-open-tickets']);

    await h.cli(['config', 'unset', 'pager']);
    expect((await h.cli(['config', 'get', 'pager'], { env: { PAGER: '' } })).stdout).toBe('less -FRX\n');
  });

  it("the editor's hint for a path with spaces the shell split says how to quote it where it was set", async () => {
    const editor = '/mnt/c/Program Files/Notepad++/notepad++.exe';
    const quoted = `'"${editor}"'`;
    expect((await h.cli(['config', 'set', 'editor', editor])).code).toBe(0);
    try {
      const saved = editorChoice((await h.context({ env: { VISUAL: '', EDITOR: '' } })).ctx);
      expect(saved.unquotedHint).toBe(`the editor setting is a path with spaces, which the shell splits: quote it: tkt config set editor ${quoted}`);
      const forProfile = editorChoice((await h.context({ env: { VISUAL: '', EDITOR: '', TKT_PROFILE: 'viewer' } })).ctx);
      expect(forProfile.unquotedHint).toContain(`quote it: tkt config set editor ${quoted} --profile viewer`);
    } finally {
      await h.cli(['config', 'unset', 'editor']);
    }
    const fromVisual = editorChoice((await h.context({ env: { VISUAL: editor, EDITOR: 'vi' } })).ctx);
    expect(fromVisual.unquotedHint).toBe(`$VISUAL is a path with spaces, which the shell splits: quote it: export VISUAL=${quoted}`);
  });

  it('refuses an unknown key or a bad value with exit 2, saving nothing', async () => {
    const before = createConfigStore(h.configDir).getSettings();
    const unknown = await h.cli(['config', 'set', 'colour', 'blue']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown setting "colour"');
    expect(unknown.stderr).toContain('settings: editor, pager, default-view, default-concurrency');
    expect((await h.cli(['config', 'get', 'colour'])).code).toBe(2);
    // A misspelt key: the one meant, as a misspelt command, template or alias is offered.
    for (const verb of [
      ['set', 'editr', 'vi'],
      ['get', 'editr'],
      ['unset', 'editr'],
    ]) {
      const typo = await h.cli(['config', ...verb]);
      expect({ code: typo.code, stderr: typo.stderr }, verb[0]).toEqual({
        code: 2,
        stderr: 'error: unknown setting "editr"\n  settings: editor, pager, default-view, default-concurrency, web-url\nhint: did you mean editor?\n',
      });
    }
    for (const [key, value] of [
      ['default-concurrency', '0'],
      ['default-concurrency', 'many'],
      ['default-view', 'my-lunch'],
      ['editor', ' '],
    ]) {
      const bad = await h.cli(['config', 'set', key!, value!]);
      expect(bad.code, `${key} ${value}`).toBe(2);
    }
    expect(createConfigStore(h.configDir).getSettings()).toEqual(before);
  });

  /** config.json's settings as a colleague left them: written by hand, over what tkt saved. */
  const handEdit = (settings: Record<string, unknown>) => {
    const file = settingsFileIn(h.configDir);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...saved, settings }));
    return file;
  };

  it('refuses a hand-edited bad value where a command uses it, naming the setting and the file, never an option not typed (exit 2)', async () => {
    const file = handEdit({ defaultView: 'all-my-group', webUrl: 'https://helpdesk.example.com/Ticket/Details/', defaultConcurrency: 0 });
    const ids = unusedTicket(h, () => true).id;
    const close = await sendsNothing(h, () => h.cli(['close', String(ids), '--dry-run']));
    expect(close.code).toBe(2);
    expect(close.stderr).toContain(`error: default-concurrency 0 in ${file}: expected a whole number from 1 to 32`);
    expect(close.stderr).toContain('hint: tkt config set default-concurrency N, or tkt config unset default-concurrency');
    expect(close.stderr).not.toContain('--concurrency');
    const list = await sendsNothing(h, () => h.cli(['list']));
    expect(list.code).toBe(2);
    expect(list.stderr).toContain(`error: default-view "all-my-group" in ${file}: unknown view`);
    expect(list.stderr).toContain('all-my-groups');
    expect(list.stderr).toContain('hint: tkt config set default-view NAME, or tkt config unset default-view');
    const browse = await h.cli(['browse', '-n', '42']);
    expect(browse.code).toBe(2);
    expect(browse.stdout).toBe('');
    expect(browse.stderr).toContain(`error: web-url "https://helpdesk.example.com/Ticket/Details/" in ${file}: needs {id} where the ticket's ID goes`);
    // Commands that do not use the bad settings run as before; --view and --concurrency given win over them.
    expect((await h.cli(['config', 'get', 'pager'])).code).toBe(0);
    expect((await h.cli(['list', '--view', 'all-tickets', '--limit', '1', '-q'])).code).toBe(0);
  });

  it('refuses a hand-written "settings" that is no object (exit 1 naming the file and key), and never rewrites it', async () => {
    const file = settingsFileIn(h.configDir);
    const before = readFileSync(file, 'utf8');
    try {
      const saved = JSON.parse(before) as Record<string, unknown>;
      const text = JSON.stringify({ ...saved, settings: ['keep me'] });
      writeFileSync(file, text);
      for (const argv of [
        ['alias', 'set', 'q', 'list'],
        ['config', 'set', 'pager', 'more'],
        ['config', 'get', 'pager'],
        ['list', '-q'],
      ]) {
        const result = await sendsNothing(h, () => h.cli(argv));
        expect({ code: result.code, stdout: result.stdout }, argv.join(' ')).toEqual({ code: 1, stdout: '' });
        expect(result.stderr.split('\n')[0]).toBe(`error: cannot read ${file}: "settings" is not an object: ["keep me"]`);
      }
      expect(readFileSync(file, 'utf8')).toBe(text);
    } finally {
      writeFileSync(file, before);
    }
  });

  it('config list flags hand-edited bad values and keys tkt does not read, and still lists every setting', async () => {
    const file = handEdit({ defaultView: 'all-my-group', defaultConcurrency: 0, 'default-view': 'my-open-tickets', pager: 7 });
    const listed = await h.cli(['config', 'list']);
    expect(listed.stdout).toContain('default-view=all-my-group  (global, invalid)\n');
    expect(listed.stdout).toContain('editor=');
    expect(listed.stderr).toContain(
      `warning: default-view "all-my-group" in ${file}: unknown view; commands that use it fail: tkt config set default-view NAME`,
    );
    expect(listed.stderr).toContain(`warning: default-concurrency 0 in ${file}: expected a whole number from 1 to 32`);
    expect(listed.stderr).toContain(`warning: ${file}: tkt does not read the setting "default-view"; it is written defaultView there`);
    expect(listed.stderr).not.toContain('pager');
    const json = JSON.parse((await h.cli(['config', 'list', '--json'])).stdout) as { key: string; problem?: string }[];
    expect(json.find((row) => row.key === 'default-concurrency')?.problem).toBe('expected a whole number from 1 to 32');
    expect(json.find((row) => row.key === 'editor')).not.toHaveProperty('problem');
  });
});

describe('tkt profiles', () => {
  /** `tkt profiles` at a terminal: the table people read. */
  const atTerminal = async () => {
    const run = await h.context({ tty: true, size: { columns: 120 } });
    await runProfiles({}, run.ctx);
    return run.stdout();
  };

  it('lists every profile and marks the active one', async () => {
    await loginAs(h.sandbox, h.configDir, 'tech', 'support');
    const human = await atTerminal();
    expect(human).toContain(`*  default  ${h.sandbox.url}  logged in as admin\n`);
    expect(human).toContain(`   support  ${h.sandbox.url}  logged in as tech\n`);
    const quiet = await h.cli(['--profile', 'viewer', 'profiles', '-q']);
    expect(quiet.stdout).toBe('default\nsupport\nviewer\n');
    const json = await h.cli(['profiles', '--json'], { env: { TKT_PROFILE: 'support' } });
    const profiles = JSON.parse(json.stdout) as { name: string; active: boolean; loggedIn: boolean }[];
    expect(profiles.filter((p) => p.active).map((p) => p.name)).toEqual(['support']);
    // A profile nothing created is a typo, not an empty profile: exit 2 listing those that exist.
    const unknown = await h.cli(['--profile', 'brand-new', 'profiles']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('profiles: default, support, viewer');
  });

  it('piped, prints tab-separated lines without a header, as tkt list does: the mark, name, URL (empty when none) and state', async () => {
    await loginAs(h.sandbox, h.configDir, 'tech', 'support');
    // As an older tkt's config set made it.
    await createConfigStore(h.configDir).saveSettings({ editor: 'vim' }, 'nourl');
    const piped = await h.cli(['profiles', '--profile', 'support']);
    expect(piped.stdout).toBe(
      [
        `\tdefault\t${h.sandbox.url}\tlogged in as admin`,
        '\tnourl\t\tnot logged in',
        `*\tsupport\t${h.sandbox.url}\tlogged in as tech`,
        `\tviewer\t${h.sandbox.url}\tlogged in as viewer`,
      ].join('\n') + '\n',
    );
  });
});

describe('tkt profiles columns', () => {
  it('line up the URLs and states whatever the names, with a header', async () => {
    await loginAs(h.sandbox, h.configDir, 'tech', 'a-much-longer-profile-name');
    const run = await h.context({ tty: true, size: { columns: 120 } });
    await runProfiles({}, run.ctx);
    const lines = run.stdout().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ {3}NAME +URL +STATUS$/);
    const urlAt = lines[0]!.indexOf('URL');
    const rows = lines.slice(1);
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) expect(row.slice(urlAt)).toMatch(/^(http:\/\/127\.0\.0\.1:\d+|\(no URL\)) +(logged in|not logged in)/);
    expect(rows).toContain(`   a-much-longer-profile-name  ${h.sandbox.url}  logged in as tech`);
  });
});

describe('notes for people', () => {
  it('go to stderr, and -q leaves them out', async () => {
    await loginAs(h.sandbox, h.configDir, 'tech', 'note-a');
    await loginAs(h.sandbox, h.configDir, 'tech', 'note-b');
    const told = await h.cli(['--profile', 'note-a', 'logout']);
    expect(told.stdout).toBe('');
    expect(told.stderr).toMatch(/^Logged out of .* \(profile note-a\): token deleted\n$/);
    const quiet = await h.cli(['--profile', 'note-b', 'logout', '-q']);
    expect(quiet.stderr).toBe('');
    expect(createConfigStore(h.configDir).readToken('note-b')).toBeUndefined();
  });
});

describe('warnings', () => {
  it('say with -q too that a variable wins over the setting just saved, or keeps a logged-out shell logged in', async () => {
    const saved = await h.cli(['-q', 'config', 'set', 'pager', 'most'], { env: { PAGER: 'less' } });
    expect(saved.code).toBe(0);
    expect(saved.stderr).toBe('warning: $PAGER is set and wins over this setting\n');
    await h.cli(['config', 'unset', 'pager']);
    await loginAs(h.sandbox, h.configDir, 'tech', 'warned');
    const loggedOut = await h.cli(['--profile', 'warned', '-q', 'logout'], { env: { TKT_TOKEN: 'abc' } });
    expect(loggedOut.stderr).toBe('warning: TKT_TOKEN is still set, so commands stay authenticated with it\n');
  });
});
