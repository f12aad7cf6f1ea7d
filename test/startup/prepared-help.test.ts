// dist/start.cjs prints help prepared at build time (README, Performance): it must be exactly what the CLI
// itself prints, for the program and for every command, however it is asked for.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunState } from '../../src/process-host.js';
import { buildProgram } from '../../src/commander-program.js';
import { runCli } from '../../src/program.js';
import { loadCommands } from '../../src/commands/index.js';
import { fakeProcess } from '../cli/fake-process.js';

// Every command's module, loaded once: each test's program registers all of them.
const allCommands = await loadCommands();

const bin = fileURLToPath(new URL('../../bin/tkt.js', import.meta.url));

/** The bin's stdout and exit code, piped, without a session. */
function runBin(args: string[], env: Record<string, string> = {}): { code: number; stdout: string } {
  const child = spawnSync(process.execPath, [bin, ...args], { env: { ...process.env, TKT_URL: '', TKT_TOKEN: '', NO_COLOR: '1', ...env }, encoding: 'utf8' });
  return { code: child.status ?? -1, stdout: child.stdout };
}

/** The CLI run in this process, stdout as the test chooses. */
async function runInProcess(
  args: string[],
  stdout: { isTTY?: boolean; columns?: number } = {},
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string }> {
  const proc = { ...fakeProcess({}, env), stdout: Object.assign(new PassThrough(), stdout) };
  const code = await runCli(args, proc);
  // Every buffered chunk: from Node 26 on, read() without a size returns one chunk, not all of them.
  let text = '';
  for (let chunk = proc.stdout.read(); chunk !== null; chunk = proc.stdout.read()) text += String(chunk);
  return { code, stdout: text };
}

const commandNames = buildProgram(fakeProcess(), createRunState(), allCommands)
  .commands.filter((command) => command.name() !== '__complete')
  .flatMap((command) => [command.name(), ...command.aliases()]);

describe('prepared help', () => {
  it('lists commands to check (so the checks below are not vacuous)', () => {
    expect(commandNames).toEqual(expect.arrayContaining(['list', 'show', 'view', 'close', 'sandbox']));
  });

  it.each([[['--help']], [['-h']], [['help']], [[]]])('tkt %j prints the CLI own help on stdout, exit 0', async (args) => {
    expect(runBin(args)).toEqual(await runInProcess(['--help']));
  });

  it.each(commandNames)('tkt %s --help, -h and help print the CLI own help', async (name) => {
    const expected = await runInProcess([name, '--help']);

    expect(expected.stdout).toMatch(/^Usage: tkt /);
    expect(runBin([name, '--help'])).toEqual(expected);
    expect(runBin([name, '-h'])).toEqual(expected);
    expect(runBin(['help', name])).toEqual(expected);
  });
});

describe("the user's aliases in tkt --help", () => {
  let configDir: string;
  beforeAll(() => {
    configDir = mkdtempSync(path.join(os.tmpdir(), 'tkt-help-aliases-'));
  });
  afterAll(() => rmSync(configDir, { recursive: true, force: true }));
  const env = () => ({ TKT_CONFIG_DIR: configDir });
  const saveSettings = (text: string) => writeFileSync(path.join(configDir, 'config.json'), text);

  it.each([[['--help']], [['-h']], [['help']]])('tkt %j ends with each alias and its expansion, from the bin and the CLI alike', async (args) => {
    saveSettings(JSON.stringify({ settings: { aliases: { mine: 'list --view my-open-tickets', urgent: '!tkt list -q | tkt pickup -' } } }));
    const withoutAliases = await runInProcess(['--help']);

    const fromBin = runBin(args, env());
    const inProcess = await runInProcess(args, {}, env());

    expect(inProcess.code).toBe(0);
    expect(inProcess.stdout).toBe(`${withoutAliases.stdout}\nAliases:\n  mine    list --view my-open-tickets\n  urgent  !tkt list -q | tkt pickup -\n`);
    expect(fromBin).toEqual(inProcess);
  });

  // The bin answers an alias's help from the prepared help of its command (src/fast-start.ts), and
  // leaves the rest to the CLI: the same text and exit code either way.
  it.each([
    [
      'a command',
      'mine',
      'list --view my-open-tickets',
      [
        ['mine', '--help'],
        ['mine', '-h'],
        ['help', 'mine'],
      ],
    ],
    [
      "a command's alias, quoted, with a placeholder",
      'peek',
      `'view' $1 --json`,
      [
        ['peek', '--help'],
        ['help', 'peek'],
      ],
    ],
    [
      'a command with subcommands',
      'dv',
      'config get default-view',
      [
        ['dv', '--help'],
        ['help', 'dv'],
      ],
    ],
    [
      'global options first (saved by an older tkt)',
      'old',
      '--json show $1',
      [
        ['old', '--help'],
        ['help', 'old'],
      ],
    ],
    [
      'an unbalanced quote',
      'broken',
      `list --search 'oops`,
      [
        ['broken', '--help'],
        ['help', 'broken'],
      ],
    ],
    [
      'no command',
      'nothing',
      'frobnicate 1',
      [
        ['nothing', '--help'],
        ['help', 'nothing'],
      ],
    ],
    ['a shell command', 'urgent', '!tkt list -q | tkt pickup -', [['help', 'urgent']]],
    [
      'a help topic',
      'exit-codes',
      'list',
      [
        ['exit-codes', '--help'],
        ['help', 'exit-codes'],
      ],
    ],
  ])("prints an alias's help as the CLI does: %s", async (_case, name, expansion, requests) => {
    saveSettings(JSON.stringify({ settings: { aliases: { [name]: expansion } } }));

    for (const args of requests) {
      const inProcess = await runInProcess(args, {}, env());
      expect({ args, ...runBin(args, env()) }).toEqual({ args, ...inProcess });
      expect(inProcess.stdout + String(inProcess.code)).not.toBe('0');
    }
  });

  it("lists them in the program's help only, not in a command's", async () => {
    saveSettings(JSON.stringify({ settings: { aliases: { mine: 'list --view my-open-tickets' } } }));

    expect(runBin(['list', '--help'], env()).stdout).not.toContain('Aliases:');
    expect((await runInProcess(['list', '--help'], {}, env())).stdout).not.toContain('Aliases:');
  });

  it('shows an expansion holding control characters in caret notation', async () => {
    saveSettings(JSON.stringify({ settings: { aliases: { clear: 'list --title \u001b[2J' } } }));

    expect(runBin(['--help'], env()).stdout).toContain('\nAliases:\n  clear  list --title ^[[2J\n');
    expect((await runInProcess(['--help'], {}, env())).stdout).toContain('\nAliases:\n  clear  list --title ^[[2J\n');
  });

  it.each([
    ['no aliases', JSON.stringify({ settings: { aliases: {} }, profiles: { default: { url: 'http://127.0.0.1:9' } } })],
    ['a damaged settings file', '{"settings": {"aliases": {"mine": '],
    ['settings that are not an object', '[1, 2]'],
  ])('prints the help without an Aliases section for %s', async (_case, text) => {
    saveSettings(text);
    const withoutAliases = await runInProcess(['--help']);

    expect(withoutAliases.stdout).not.toContain('Aliases:');
    expect(runBin(['--help'], env())).toEqual(withoutAliases);
    expect(await runInProcess(['--help'], {}, env())).toEqual(withoutAliases);
  });
});

describe('help layout', () => {
  // Options are wrapped to the width (the examples after them are printed as written).
  const longestOptionLine = (help: string) =>
    Math.max(
      ...help
        .split('\n\n')
        .find((block) => block.startsWith('Options:'))!
        .split('\n')
        .map((line) => line.length),
    );

  it('is 80 columns in a pipe and at any terminal alike, so it can be prepared', async () => {
    const piped = await runInProcess(['create', '--help']);
    const wide = await runInProcess(['create', '--help'], { isTTY: true, columns: 200 });

    expect(wide.stdout).toBe(piped.stdout);
    expect(longestOptionLine(piped.stdout)).toBeGreaterThan(60);
    expect(longestOptionLine(piped.stdout)).toBeLessThanOrEqual(80);
  });
});
