// A command's own bundle (src/command-bundle.ts) runs a command line as the full CLI would, with
// only its command and its part of the table, and leaves every other command line to the full
// CLI before it has done anything. In-process, against a sandbox; the built bundles and their
// loader are test/bundle-loader.test.ts's.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBundled } from '../src/command-bundle.js';
import type { ArgvTable } from '../src/cmdutil/argv-table.js';
import type { CommandName } from '../src/commands/names.js';
import { loadCommands } from '../src/commands/index.js';
import { createHarness, type Harness } from './helpers/harness.js';
import { argvTable } from './helpers/program.js';
import { processSignals } from './cli/fake-process.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

/** The table a bundle carries (scripts/build-commands.mjs): the program's options and its one command. */
const tableOf = (name: CommandName): ArgvTable => ({ ...argvTable, commands: argvTable.commands.filter((command) => command.names[0] === name) });

/** Runs `argv` through command `name`'s bundle entry with piped streams. */
async function bundled(name: CommandName, argv: string[]) {
  const [loaded] = await loadCommands([name]);
  const text = () => {
    const stream = Object.assign(new PassThrough(), { isTTY: false });
    let written = '';
    stream.on('data', (chunk: Buffer) => void (written += chunk.toString('utf8')));
    return { stream, written: () => written };
  };
  const stdout = text();
  const stderr = text();
  const proc = { stdin: new PassThrough(), stdout: stdout.stream, stderr: stderr.stream, env: { TKT_CONFIG_DIR: h.configDir }, ...processSignals() };
  const code = await runBundled(argv, name, loaded!.module, tableOf(name), proc);
  return { code, stdout: stdout.written(), stderr: stderr.written() };
}

describe("a command's bundle", () => {
  it.each([
    ['show', ['show', '1013', '--json']],
    ['show', ['view', '1013']],
    ['list', ['list', '--status', 'Open', '-q']],
    ['show', ['show', '999999']],
    ['list', ['list', '--fields', 'nosuchfield']],
    ['show', ['--json', 'view', '1013']],
    ['list', ['-q', '--timeout=20', 'list', '--status', 'Open']],
  ] as const)('runs %s with %j as the full CLI does: the same output and exit code', async (name, argv) => {
    const viaBundle = await bundled(name, [...argv]);
    const viaCli = await h.cli([...argv]);

    expect(viaBundle).toEqual({ code: viaCli.code, stdout: viaCli.stdout, stderr: viaCli.stderr });
    expect(viaBundle.stdout + viaBundle.stderr).not.toBe('');
  });

  it.each([
    ['a missing argument (commander says what is missing)', 'show', ['show']],
    ['an unknown option', 'show', ['show', '1013', '--no-such-option']],
    ['help', 'show', ['show', '1013', '--help']],
    ['another command', 'show', ['list']],
    ['another command after a global option whose value names this one', 'show', ['--profile', 'show', 'list']],
    ['the version', 'show', ['-V', 'show', '1013']],
    ['help, whose handler reads the program', 'help', ['help', 'show']],
  ] as const)('leaves %s to the full CLI, having written and sent nothing', async (_case, name, argv) => {
    const requests = h.sandbox.stats.requests;

    const run = await bundled(name, [...argv]);

    expect(run).toEqual({ code: undefined, stdout: '', stderr: '' });
    expect(h.sandbox.stats.requests).toBe(requests);
  });
});
