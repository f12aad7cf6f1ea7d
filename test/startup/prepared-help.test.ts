// dist/start.cjs prints help prepared at build time (README, Performance): it must be exactly what the CLI
// itself prints, for the program and for every command, however it is asked for.
import { spawnSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRunState } from '../../src/process-host.js';
import { buildProgram, runCli } from '../../src/program.js';
import { fakeProcess } from '../cli/fake-process.js';

const bin = fileURLToPath(new URL('../../bin/tkt.js', import.meta.url));

/** The bin's stdout and exit code, piped, without a session. */
function runBin(args: string[]): { code: number; stdout: string } {
  const child = spawnSync(process.execPath, [bin, ...args], { env: { ...process.env, TKT_URL: '', TKT_TOKEN: '', NO_COLOR: '1' }, encoding: 'utf8' });
  return { code: child.status ?? -1, stdout: child.stdout };
}

/** The CLI run in this process, stdout as the test chooses. */
async function runInProcess(args: string[], stdout: { isTTY?: boolean; columns?: number } = {}): Promise<{ code: number; stdout: string }> {
  const proc = { ...fakeProcess(), stdout: Object.assign(new PassThrough(), stdout) };
  const code = await runCli(args, proc);
  // Every buffered chunk: from Node 26 on, read() without a size returns one chunk, not all of them.
  let text = '';
  for (let chunk = proc.stdout.read(); chunk !== null; chunk = proc.stdout.read()) text += String(chunk);
  return { code, stdout: text };
}

const commandNames = buildProgram(fakeProcess(), createRunState())
  .commands.filter((command) => command.name() !== '__complete')
  .flatMap((command) => [command.name(), ...command.aliases()]);

describe('prepared help', () => {
  it('lists commands to check (so the checks below are not vacuous)', () => {
    expect(commandNames).toEqual(expect.arrayContaining(['list', 'show', 'view', 'close', 'sandbox']));
  });

  it.each([[['--help']], [['-h']], [['help']]])('tkt %j prints the CLI own help', async (args) => {
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
