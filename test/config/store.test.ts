import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createConfigStore } from '../../src/config/store.js';
import type { StoredToken } from '../../src/config/types.js';
import { OperationError, UsageError } from '../../src/errors.js';
import { useTempDirs } from './temp-dir.js';
import { childScript } from '../helpers/child-script.js';

const tempDir = useTempDirs();
const posixOnly = process.platform === 'win32' ? it.skip : it;

const token: StoredToken = {
  token: 'eyJ.header.sig',
  expiresAt: '2030-01-01T00:00:00.000Z',
  url: 'https://helpdesk.example.com',
  userId: '7',
  username: 'jdoe',
  firstName: 'Jane',
  lastName: 'Doe',
};

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('profiles', () => {
  it('saves settings and merges later changes into them', async () => {
    const dir = tempDir();
    await createConfigStore(dir).saveProfile('default', { url: 'https://a.example' });
    await createConfigStore(dir).saveProfile('default', { allowHttp: true });
    await createConfigStore(dir).saveProfile('staging', { url: 'http://b.example' });

    const store = createConfigStore(dir);
    expect(store.getProfile('default')).toEqual({ url: 'https://a.example', allowHttp: true });
    expect(store.getProfile('staging')).toEqual({ url: 'http://b.example' });
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'))).toEqual({
      profiles: { default: { url: 'https://a.example', allowHttp: true }, staging: { url: 'http://b.example' } },
    });
  });

  it('gives an empty profile for unknown names, including Object.prototype members', () => {
    const store = createConfigStore(tempDir());
    expect(store.getProfile('nobody')).toEqual({});
    expect(store.getProfile('constructor')).toEqual({});
  });

  it('keeps dotted profile names whole', async () => {
    const store = createConfigStore(tempDir());
    await store.saveProfile('eu.prod', { url: 'https://eu.example' });
    expect(store.getProfile('eu.prod')).toEqual({ url: 'https://eu.example' });
    expect(store.getProfile('eu')).toEqual({});
  });

  it('reports a damaged settings file instead of emptying it', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'config.json'), '{"profiles": {');
    const error = (() => {
      try {
        createConfigStore(dir).getProfile('default');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(OperationError);
    expect((error as OperationError).message).toContain(path.join(dir, 'config.json'));
    expect(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).toBe('{"profiles": {');
  });
});

describe('a settings or token file edited by hand', () => {
  /** The error `use` throws (or rejects with), or undefined. */
  const thrown = async (use: () => unknown) => {
    try {
      await use();
    } catch (caught) {
      return caught as OperationError;
    }
    return undefined;
  };

  it('reads a leading BOM (Notepad) as nothing, and an empty or blank file as no settings', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, '\ufeff{"settings": {"pager": "more"}, "profiles": {"work": {"url": "https://w.example"}}}\r\n');
    expect(createConfigStore(dir).getSettings()).toEqual({ pager: 'more' });
    expect(createConfigStore(dir).getProfile('work')).toEqual({ url: 'https://w.example' });
    for (const text of ['', ' \n\t\r\n', '\ufeff']) {
      fs.writeFileSync(file, text);
      expect(createConfigStore(dir).getSettings()).toEqual({});
      expect(createConfigStore(dir).profileNames()).toEqual([]);
    }
    await createConfigStore(dir).saveSettings({ pager: 'less' });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ settings: { pager: 'less' } });
    fs.mkdirSync(path.join(dir, 'tokens'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'tokens', 'default.json'), `\ufeff${JSON.stringify(token)}`);
    expect(createConfigStore(dir).readToken('default')).toEqual(token);
    fs.writeFileSync(path.join(dir, 'tokens', 'default.json'), '');
    expect(createConfigStore(dir).readToken('default')).toBeUndefined();
  });

  it('names a config.json or token file saved as UTF-16 (Notepad\'s "Unicode") as such, with the iconv hint that keeps its name', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, Buffer.from('\ufeff{"settings": {"pager": "more"}}\r\n', 'utf16le'));
    const error = await thrown(() => createConfigStore(dir).getSettings());
    expect(error).toBeInstanceOf(OperationError);
    expect(error!.message).toBe(`cannot read ${file}: UTF-16 text, not UTF-8`);
    expect(error!.hint).toBe(`save it as UTF-8, or convert it: iconv -f UTF-16 -t UTF-8 ${file} > ${file}.new && mv ${file}.new ${file}`);
    fs.rmSync(file);
    fs.mkdirSync(path.join(dir, 'tokens'));
    const tokenFile = path.join(dir, 'tokens', 'default.json');
    fs.writeFileSync(tokenFile, Buffer.from(`\ufeff${JSON.stringify(token)}`, 'utf16le'));
    expect((await thrown(() => createConfigStore(dir).readToken('default')))!.message).toBe(`cannot read ${tokenFile}: UTF-16 text, not UTF-8`);
  });

  it('names the line and column of a syntax error, not its offset', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, '{\n  "settings": {\n    "pager": "less",\n  }\n}\n');
    const error = await thrown(() => createConfigStore(dir).getSettings());
    expect(error).toBeInstanceOf(OperationError);
    expect(error!.message).toBe(`cannot read ${file}: not valid JSON at line 4, column 3: Expected double-quoted property name`);
    fs.mkdirSync(path.join(dir, 'tokens'));
    const tokenFile = path.join(dir, 'tokens', 'default.json');
    fs.writeFileSync(tokenFile, '{"token": tru}');
    expect((await thrown(() => createConfigStore(dir).readToken('default')))!.message).toBe(
      `cannot read ${tokenFile}: not valid JSON at line 1, column 11: unexpected "tru}"`,
    );
  });

  it('refuses a "settings", "profiles", profile or profile "settings" that is no object, for reads and writes, never rewriting it', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ settings: ['keep me'] }, '"settings" is not an object: ["keep me"]'],
      [{ settings: 'pager=less' }, '"settings" is not an object: "pager=less"'],
      [{ profiles: ['default'] }, '"profiles" is not an object: ["default"]'],
      [{ profiles: { work: 'https://w.example' } }, 'profile "work" is not an object: "https://w.example"'],
      [{ profiles: { work: { url: 'https://w.example', settings: [1] } } }, 'the "settings" of profile "work" is not an object: [1]'],
    ];
    for (const [saved, problem] of cases) {
      const dir = tempDir();
      const file = path.join(dir, 'config.json');
      const text = JSON.stringify(saved);
      fs.writeFileSync(file, text);
      const store = createConfigStore(dir);
      const uses: [string, () => unknown][] = [
        ['getSettings', () => store.getSettings()],
        ['getSettings work', () => store.getSettings('work')],
        ['getProfile', () => store.getProfile('work')],
        ['profileNames', () => store.profileNames()],
        ['saveSettings', () => store.saveSettings({ aliases: { q: 'list' } })],
        ['saveSettings work', () => store.saveSettings({ pager: 'less' }, 'work')],
        ['saveProfile', () => store.saveProfile('work', { url: 'https://x.example' })],
      ];
      for (const [name, use] of uses) {
        const error = await thrown(use);
        expect(error, `${text}: ${name}`).toBeInstanceOf(OperationError);
        expect(error!.message).toBe(`cannot read ${file}: ${problem}`);
        expect(error!.hint).toContain('no command changes the file until then');
      }
      expect(fs.readFileSync(file, 'utf8')).toBe(text);
    }
  });
});

describe('tokens', () => {
  it('writes, reads back and deletes a token in one file per profile', async () => {
    const dir = tempDir();
    const store = createConfigStore(dir);
    await store.writeToken('default', token);
    await store.writeToken('other', { ...token, token: 'other-token' });

    expect(createConfigStore(dir).readToken('default')).toEqual(token);
    expect(fs.readdirSync(path.join(dir, 'tokens')).sort()).toEqual(['default.json', 'other.json']);

    await store.deleteToken('default');
    expect(store.readToken('default')).toBeUndefined();
    expect(store.readToken('other')?.token).toBe('other-token');
    await expect(store.deleteToken('default')).resolves.toBeUndefined();
  });

  posixOnly('makes token files 0600 and the tokens folder 0700, even if they existed with looser modes', async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'tokens'), { mode: 0o755 });
    fs.chmodSync(path.join(dir, 'tokens'), 0o755);
    fs.writeFileSync(path.join(dir, 'tokens', 'default.json'), '{}', { mode: 0o644 });
    fs.chmodSync(path.join(dir, 'tokens', 'default.json'), 0o644);

    await createConfigStore(dir).writeToken('default', token);

    expect(modeOf(path.join(dir, 'tokens'))).toBe(0o700);
    expect(modeOf(path.join(dir, 'tokens', 'default.json'))).toBe(0o600);
  });

  it('ignores a token file that lacks the token, URL or a valid expiry', async () => {
    const dir = tempDir();
    const store = createConfigStore(dir);
    await store.writeToken('default', { ...token, expiresAt: 'soon' });
    expect(store.readToken('default')).toBeUndefined();
    fs.writeFileSync(path.join(dir, 'tokens', 'default.json'), JSON.stringify({ token: 'x', expiresAt: token.expiresAt }));
    expect(store.readToken('default')).toBeUndefined();
  });

  it('refuses profile names that would leave the tokens folder', async () => {
    const dir = tempDir();
    const store = createConfigStore(dir);
    for (const name of ['../config', '../../escape', 'a/b']) {
      await expect(store.writeToken(name, token)).rejects.toThrow(UsageError);
      expect(() => store.readToken(name)).toThrow(UsageError);
      await expect(store.deleteToken(name)).rejects.toThrow(UsageError);
      await expect(store.saveProfile(name, {})).rejects.toThrow(UsageError);
      await expect(store.writeCache(name, 'k', 1, 1000)).rejects.toThrow(UsageError);
    }
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(fs.existsSync(path.join(path.dirname(dir), 'escape.json'))).toBe(false);
  });

  it('never leaves a half-written token file while several processes write at once', async () => {
    const dir = tempDir();
    const writer = await bundleWriter(tempDir());
    const writers = 4;
    const writesEach = 150;
    const children = Array.from({ length: writers }, (_, index) => runNode(writer, [dir, String(index), String(writesEach)]));
    let allDone = false;
    const exits = Promise.all(children).finally(() => {
      allDone = true;
    });

    const store = createConfigStore(dir);
    let tokensSeen = 0;
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by the writers running meanwhile
    while (!allDone) {
      // Every read must be a whole token: a torn file would fail to parse and throw here.
      const read = store.readToken('default');
      if (read !== undefined) {
        expect(read.token).toMatch(/^writer-\d-\d+-x{4000}$/);
        tokensSeen += 1;
      }
      await nextTurn();
    }

    expect(await exits).toEqual(Array(writers).fill(0));
    expect(tokensSeen).toBeGreaterThan(0);
    expect(store.readToken('default')?.token).toMatch(new RegExp(`^writer-\\d-${writesEach - 1}-`));
    // Temporary files were all renamed into place.
    expect(fs.readdirSync(path.join(dir, 'tokens'))).toEqual(['default.json']);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).profiles).toBeTypeOf('object');
  });
});

describe('lookup cache', () => {
  it('returns entries until they expire', async () => {
    const dir = tempDir();
    const store = createConfigStore(dir);
    await store.writeCache('default', 'sites', [{ id: 1, title: 'HQ' }], 60_000);
    await store.writeCache('default', 'status', ['Open'], -1);

    expect(createConfigStore(dir).readCache('default', 'sites')).toEqual([{ id: 1, title: 'HQ' }]);
    expect(store.readCache('default', 'status')).toBeUndefined();
    expect(store.readCache('default', 'never-written')).toBeUndefined();
  });

  it('keeps one cache per profile, separate from the tokens', async () => {
    const dir = tempDir();
    const store = createConfigStore(dir);
    await store.writeCache('default', 'lookups.sites', 'default sites', 60_000);
    await store.writeCache('staging', 'lookups.sites', 'staging sites', 60_000);

    expect(store.readCache('default', 'lookups.sites')).toBe('default sites');
    expect(store.readCache('staging', 'lookups.sites')).toBe('staging sites');
    expect(fs.readdirSync(path.join(dir, 'cache')).sort()).toEqual(['default.json', 'staging.json']);
    expect(fs.existsSync(path.join(dir, 'tokens'))).toBe(false);
  });

  it('treats a damaged cache file or entry as a miss', () => {
    const dir = tempDir();
    const store = createConfigStore(dir);
    fs.mkdirSync(path.join(dir, 'cache'));
    fs.writeFileSync(path.join(dir, 'cache', 'default.json'), 'not json');
    expect(store.readCache('default', 'sites')).toBeUndefined();
    fs.writeFileSync(path.join(dir, 'cache', 'other.json'), JSON.stringify({ sites: null, status: { value: 1 } }));
    expect(store.readCache('other', 'sites')).toBeUndefined();
    expect(store.readCache('other', 'status')).toBeUndefined();
  });

  it('replaces a damaged cache file on the next write', async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'cache'));
    fs.writeFileSync(path.join(dir, 'cache', 'default.json'), 'not json');
    await createConfigStore(dir).writeCache('default', 'sites', ['HQ'], 60_000);
    expect(createConfigStore(dir).readCache('default', 'sites')).toEqual(['HQ']);
  });

  it('rejects a write it cannot make with an OperationError naming the file', async () => {
    const dir = tempDir();
    // A file where the cache folder should be: no folder can be made there, even by root.
    fs.writeFileSync(path.join(dir, 'cache'), '');
    const error = await createConfigStore(dir)
      .writeCache('default', 'sites', ['HQ'], 60_000)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OperationError);
    expect((error as OperationError).message).toContain(path.join(dir, 'cache', 'default.json'));
  });

  it('stores lookups where only the owner can read them', async () => {
    const dir = tempDir();
    await createConfigStore(dir).writeCache('default', 'requesters', ['jdoe'], 60_000);
    if (process.platform !== 'win32') {
      expect(modeOf(path.join(dir, 'cache'))).toBe(0o700);
      expect(modeOf(path.join(dir, 'cache', 'default.json'))).toBe(0o600);
    }
    expect(createConfigStore(dir).readCache('default', 'requesters')).toEqual(['jdoe']);
  });
});

// The child processes run the real store, bundled the way the CLI ships it.
async function bundleWriter(outDir: string): Promise<string> {
  return bundleScript(
    outDir,
    `
    const [dir, writer, count] = process.argv.slice(2);
    const store = createConfigStore(dir);
    for (let i = 0; i < Number(count); i++) {
      await store.writeToken('default', {
        token: 'writer-' + writer + '-' + i + '-' + 'x'.repeat(4000),
        expiresAt: '2030-01-01T00:00:00.000Z',
        url: 'https://helpdesk.example.com',
      });
      await store.saveProfile('writer' + writer, { url: 'https://helpdesk.example.com' });
    }
  `,
  );
}

/** `body` as an ES module script with createConfigStore in scope. */
const bundleScript = (outDir: string, body: string): Promise<string> => childScript(outDir, { createConfigStore: 'config/store.ts' }, body);

function runNode(script: string, args: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
}

describe('concurrent writers', () => {
  it('loses no profile when eight writes of one process overlap', async () => {
    const dir = tempDir();
    const names = Array.from({ length: 8 }, (_, i) => `p${i}`);
    await Promise.all(names.map((name) => createConfigStore(dir).saveProfile(name, { url: `https://${name}.example`, allowHttp: true })));

    const store = createConfigStore(dir);
    for (const name of names) expect(store.getProfile(name)).toEqual({ url: `https://${name}.example`, allowHttp: true });
  });

  it('loses no profile when eight processes save settings at once', async () => {
    const dir = tempDir();
    const writer = await bundleScript(
      tempDir(),
      `
      const [dir, name] = process.argv.slice(2);
      const store = createConfigStore(dir);
      for (let i = 0; i < 20; i++) await store.saveProfile(name + '-' + i, { url: 'https://' + name + '.example', allowHttp: true });
    `,
    );
    const names = Array.from({ length: 8 }, (_, i) => `p${i}`);

    expect(await Promise.all(names.map((name) => runNode(writer, [dir, name])))).toEqual(Array(8).fill(0));

    const saved = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).profiles;
    expect(Object.keys(saved)).toHaveLength(8 * 20);
    expect(saved['p7-19']).toEqual({ url: 'https://p7.example', allowHttp: true });
    // The lock and the temporary file are gone.
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });

  it('takes over a lock left by a process that died holding it', async () => {
    const dir = tempDir();
    // PID 2^22+1 is above Linux's pid_max default: no such process.
    fs.writeFileSync(path.join(dir, 'config.json.lock'), String(4_194_305));

    await createConfigStore(dir).saveProfile('default', { url: 'https://a.example' });

    expect(createConfigStore(dir).getProfile('default')).toEqual({ url: 'https://a.example' });
    expect(fs.existsSync(path.join(dir, 'config.json.lock'))).toBe(false);
  });
});

describe('signals', () => {
  posixOnly('leaves signals to the process that wrote settings: no listener added, one SIGINT seen once', async () => {
    // conf's writer (through when-exit) added SIGINT/SIGTERM listeners and sent each signal
    // back to its own process, so one Ctrl-C was seen twice. A fresh process, as the listeners
    // are added once per process, when the writer is loaded.
    const script = await bundleScript(
      tempDir(),
      `
      const store = createConfigStore(process.argv[2]);
      let seen = 0;
      process.on('SIGINT', () => { seen += 1; });
      await store.saveProfile('default', { url: 'https://a.example' });
      await store.writeToken('default', { token: 't', url: 'https://a.example', expiresAt: '2030-01-01T00:00:00.000Z' });
      await store.writeCache('default', 'sites', [], 60_000);
      const listeners = 'listeners ' + process.listenerCount('SIGINT') + ' ' + process.listenerCount('SIGTERM');
      process.stdout.write('ready\\n');
      setTimeout(() => { process.stdout.write('seen ' + seen + ', ' + listeners + '\\n'); }, 500);
    `,
    );
    const child = spawn(process.execPath, [script, tempDir()], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (output === 'ready\n') child.kill('SIGINT');
    });
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];

    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(output).toBe('ready\nseen 1, listeners 1 0\n');
  });
});

describe('the config folder', () => {
  posixOnly('is created 0700, with the tokens and cache folders, wherever it did not exist', async () => {
    const dir = path.join(tempDir(), 'nested', 'tkt');
    const store = createConfigStore(dir);
    await store.saveProfile('default', { url: 'https://a.example' });
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(path.join(dir, 'config.json'))).toBe(0o600);

    const other = path.join(tempDir(), 'tkt');
    await createConfigStore(other).writeToken('default', token);
    await createConfigStore(other).writeCache('default', 'sites', [], 60_000);
    expect([modeOf(other), modeOf(path.join(other, 'tokens')), modeOf(path.join(other, 'cache'))]).toEqual([0o700, 0o700, 0o700]);
  });
});

describe('links and loose modes', () => {
  /** A warn hook that keeps what it is told. */
  const warnings = () => {
    const said: string[] = [];
    return { said, warn: (text: string) => void said.push(text) };
  };

  posixOnly('never changes the mode of a folder that tokens/ links to: the write is refused naming the link', async () => {
    const dir = tempDir();
    const shared = path.join(tempDir(), 'shared');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o755);
    fs.symlinkSync(shared, path.join(dir, 'tokens'));
    const error = await createConfigStore(dir)
      .writeToken('default', token)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OperationError);
    expect((error as OperationError).message).toBe(`cannot write ${path.join(dir, 'tokens', 'default.json')}: ${path.join(dir, 'tokens')} is a symbolic link`);
    expect(modeOf(shared)).toBe(0o755);
    expect(fs.readdirSync(shared)).toEqual([]);
  });

  posixOnly('never changes the mode of a folder that cache/ links to', async () => {
    const dir = tempDir();
    const shared = path.join(tempDir(), 'shared');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o755);
    fs.symlinkSync(shared, path.join(dir, 'cache'));
    await expect(createConfigStore(dir).writeCache('default', 'sites', [], 60_000)).rejects.toThrow(`${path.join(dir, 'cache')} is a symbolic link`);
    expect(modeOf(shared)).toBe(0o755);
  });

  posixOnly('reads no lookup cache through a link, as cache/ or as its file: a planted cache would turn names into other IDs', async () => {
    const dir = tempDir();
    const elsewhere = tempDir();
    await createConfigStore(elsewhere).writeCache('default', 'users', [{ id: 'planted', name: 'Tom Tech' }], 60_000);
    fs.symlinkSync(path.join(elsewhere, 'cache'), path.join(dir, 'cache'));
    expect(() => createConfigStore(dir).readCache('default', 'users')).toThrow(
      `cannot read ${path.join(dir, 'cache', 'default.json')}: ${path.join(dir, 'cache')} is a symbolic link`,
    );
    const linkedFile = tempDir();
    fs.mkdirSync(path.join(linkedFile, 'cache'), { mode: 0o700 });
    fs.symlinkSync(path.join(elsewhere, 'cache', 'default.json'), path.join(linkedFile, 'cache', 'default.json'));
    expect(() => createConfigStore(linkedFile).readCache('default', 'users')).toThrow(
      `cannot read ${path.join(linkedFile, 'cache', 'default.json')}: it is a symbolic link`,
    );
  });

  posixOnly('reads no token through a link, as tokens/ or as the token file: exit 1 naming it', async () => {
    const dir = tempDir();
    const elsewhere = tempDir();
    await createConfigStore(elsewhere).writeToken('default', token);
    fs.symlinkSync(path.join(elsewhere, 'tokens'), path.join(dir, 'tokens'));
    expect(() => createConfigStore(dir).readToken('default')).toThrow(
      `cannot read ${path.join(dir, 'tokens', 'default.json')}: ${path.join(dir, 'tokens')} is a symbolic link`,
    );

    const other = tempDir();
    fs.mkdirSync(path.join(other, 'tokens'), { mode: 0o700 });
    fs.symlinkSync(path.join(elsewhere, 'tokens', 'default.json'), path.join(other, 'tokens', 'default.json'));
    expect(() => createConfigStore(other).readToken('default')).toThrow(`cannot read ${path.join(other, 'tokens', 'default.json')}: it is a symbolic link`);
  });

  posixOnly('warns once when the token file is readable or writable by others, with the command that fixes it', async () => {
    const dir = tempDir();
    await createConfigStore(dir).writeToken('default', token);
    const file = path.join(dir, 'tokens', 'default.json');
    for (const [mode, words] of [
      [0o644, 'readable by others (0644)'],
      [0o640, 'readable by its group (0640)'],
      [0o602, 'writable by others (0602)'],
      [0o666, 'readable and writable by others (0666)'],
    ] as const) {
      fs.chmodSync(file, mode);
      const { said, warn } = warnings();
      const store = createConfigStore(dir, { warn });
      expect(store.readToken('default')).toEqual(token);
      store.readToken('default');
      expect(said).toEqual([`${file} is ${words}: chmod 600 ${file}`]);
    }
    fs.chmodSync(file, 0o600);
    const { said, warn } = warnings();
    createConfigStore(dir, { warn }).readToken('default');
    expect(said).toEqual([]);
  });

  posixOnly('warns once when the config folder or tokens/ is writable by others', async () => {
    const dir = tempDir();
    await createConfigStore(dir).writeToken('default', token);
    const tokens = path.join(dir, 'tokens');
    fs.chmodSync(dir, 0o777);
    fs.chmodSync(tokens, 0o703);
    const { said, warn } = warnings();
    const store = createConfigStore(dir, { warn });
    store.readToken('default');
    store.readToken('default');
    expect(said).toEqual([`${dir} is writable by others (0777): chmod o-w ${dir}`, `${tokens} is writable by others (0703): chmod o-w ${tokens}`]);
  });
});

describe('a lock that is held', () => {
  /** A clock whose sleeps pass at once; the warnings it was at when each was said. */
  function movingClock() {
    const start = Date.now();
    let now = start;
    const said: [atMs: number, text: string][] = [];
    return {
      said,
      sleeps: () => now - start,
      options: { clock: { now: () => now, sleep: async (ms: number) => void (now += ms) }, warn: (text: string) => void said.push([now - start, text]) },
    };
  }

  it('is waited for, said after a second on stderr naming the lock and its holder, then taken over', async () => {
    const dir = tempDir();
    const lock = path.join(dir, 'config.json.lock');
    // A holder that lives: this process, as another tkt would be.
    fs.writeFileSync(lock, String(process.pid));
    const clock = movingClock();
    await createConfigStore(dir, clock.options).saveProfile('default', { url: 'https://a.example' });
    expect(createConfigStore(dir).getProfile('default')).toEqual({ url: 'https://a.example' });
    expect(clock.said.map(([, text]) => text)).toEqual([
      `waiting for ${lock}, held by process ${process.pid}`,
      `took over ${lock}: process ${process.pid} has held it for more than 10 s`,
    ]);
    const [waited] = clock.said[0]!;
    expect(waited).toBeGreaterThanOrEqual(1000);
    expect(waited).toBeLessThan(1100);
  });

  // An admin's 20 parallel `list --refresh` (xargs -P 20) each said "waiting for cache/default.json.lock":
  // noise in cron mail for a file that only saves a request, and a wait before the command's answer.
  it('of the lookup cache is waited for a second at most, silently: the cache is left as it is, which costs a later run a request', async () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'cache'), { mode: 0o700 });
    const lock = path.join(dir, 'cache', 'default.json.lock');
    fs.writeFileSync(lock, String(process.pid));
    const clock = movingClock();
    await createConfigStore(dir, clock.options).writeCache('default', 'sites', ['HQ'], 60_000);
    expect(createConfigStore(dir).readCache('default', 'sites')).toBeUndefined();
    expect(fs.readFileSync(lock, 'utf8')).toBe(String(process.pid));
    expect(clock.said).toEqual([]);
    expect(clock.sleeps()).toBeGreaterThanOrEqual(1000);
    expect(clock.sleeps()).toBeLessThan(1100);
  });

  it('that is not a file is an error at once, naming it', async () => {
    const dir = tempDir();
    const lock = path.join(dir, 'config.json.lock');
    fs.mkdirSync(lock);
    const clock = movingClock();
    const error = await createConfigStore(dir, clock.options)
      .saveProfile('default', { url: 'https://a.example' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OperationError);
    expect((error as OperationError).message).toBe(`cannot write ${path.join(dir, 'config.json')}: its lock ${lock} is not a file`);
    expect((error as OperationError).hint).toBe(`tkt makes that file while it writes, and removes it: move ${lock} away`);
    expect(clock.sleeps()).toBe(0);
    expect(clock.said).toEqual([]);
  });
});

describe('a store with no config folder (a user with no home folder: defaultConfigDir answered none)', () => {
  it('reads as empty and keeps no cache, and what must be kept there is exit 1 naming TKT_CONFIG_DIR', async () => {
    const store = createConfigStore(undefined);
    expect(store.getProfile('default')).toEqual({});
    expect(store.getSettings()).toEqual({});
    expect(store.profileNames()).toEqual([]);
    expect(store.readToken('default')).toBeUndefined();
    expect(store.readCache('default', 'k')).toBeUndefined();
    await store.writeCache('default', 'k', 1, 60_000);
    await store.deleteToken('default');
    const noFolder = { message: expect.stringMatching(/^no config folder: /), hint: expect.stringContaining('TKT_CONFIG_DIR') };
    for (const write of [
      () => store.saveProfile('default', { url: 'https://h' }),
      () => store.saveSettings({ pager: 'less' }),
      () => store.writeToken('default', token),
    ]) {
      await expect(write()).rejects.toMatchObject(noFolder);
    }
    expect(() => store.assertWritable()).toThrow(OperationError);
    expect(() => store.dir).toThrow(expect.objectContaining(noFolder));
  });
});
