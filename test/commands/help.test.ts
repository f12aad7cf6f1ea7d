// `tkt help TOPIC` prints the README's reference tables in the terminal (docs/cli.md section 10),
// from one source (src/output/help-topics.ts) that the README is checked against here.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELP_TOPICS, renderHelpTopic } from '../../src/output/help-topics.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { commandPaths, helpOf } from '../helpers/program.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** The README's text under `## heading`, up to the next section of the same level. */
function readmeSection(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  expect(start, `README section "## ${heading}"`).toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('tkt help TOPIC', () => {
  it.each(Object.entries(HELP_TOPICS))('the README shows the %s topic exactly as tkt does', (_name, topic) => {
    // If this fails, edit the text in src/output/help-topics.ts and copy it into the README.
    expect(readmeSection(topic.readmeSection)).toContain(topic.markdown);
  });

  it('prints the exit codes as an aligned table, without markdown', async () => {
    const result = await h.cli(['help', 'exit-codes']);

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^code {2}meaning$/m);
    expect(result.stdout).toMatch(/^4 {5}not authenticated: /m);
    expect(result.stdout).toMatch(/^130 {3}interrupted \(Ctrl-C, SIGINT\)$/m);
    expect(result.stdout).toMatch(/^143 {3}terminated \(SIGTERM/m);
    expect(result.stdout).not.toMatch(/\||`|---/);
    expect(result.stdout).not.toContain('Usage: tkt');
  });

  it('prints the environment variables, long meanings wrapped under their column', async () => {
    const result = await h.cli(['help', 'environment']);

    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    const token = lines.findIndex((line) => line.startsWith('TKT_TOKEN '));
    expect(token).toBeGreaterThan(-1);
    const column = lines[token]!.indexOf('bearer token');
    expect(lines[token + 1]!.slice(0, column).trim()).toBe('');
    expect(result.stdout).toMatch(/^NODE_EXTRA_CA_CERTS +/m);
  });

  it('prints the output rules for formatting', async () => {
    const result = await h.cli(['help', 'formatting']);

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^- --json: exactly one JSON document/m);
    expect(result.stdout).toMatch(/JMESPath\s+\(https:\/\/jmespath\.org\)/);
  });

  it("still shows a command's help, and lists the topics in its own help", async () => {
    const show = await h.cli(['help', 'show']);
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/^Usage: tkt show/m);

    const own = await h.cli(['help', '--help']);
    expect(own.stdout).toMatch(/^ {2}exit-codes +what each exit status means$/m);
  });

  it("shows a nested command's help, as tkt config set --help does", async () => {
    const nested = await h.cli(['help', 'config', 'set']);
    expect(nested.code, nested.stderr).toBe(0);
    expect(nested.stdout).toBe((await h.cli(['config', 'set', '--help'])).stdout);
    expect(nested.stdout).toMatch(/^Usage: tkt config set /);

    for (const argv of [
      ['help', 'config', 'nosuch'],
      ['help', 'show', 'set'],
      ['help', 'exit-codes', 'set'],
    ]) {
      const unknown = await h.cli(argv);
      expect(unknown.code, argv.join(' ')).toBe(2);
      expect(unknown.stderr).toContain(`error: no command or help topic named "${argv.slice(1).join(' ')}"`);
    }
  });

  // Commander gives it as an error's help: on stderr, the text after the options not laid out.
  it.each(['config', 'alias', 'templates', 'auth'])('shows the help of %s called without a command of its own, as --help does', async (name) => {
    const bare = await h.cli([name]);
    expect({ code: bare.code, stderr: bare.stderr }).toEqual({ code: 0, stderr: '' });
    expect(bare.stdout).toBe((await h.cli([name, '--help'])).stdout);
    expect(bare.stdout.split('\n').filter((line) => [...line].length > 80)).toEqual([]);
  });

  it('rejects an unknown subject with exit 2 and names the topics', async () => {
    const result = await h.cli(['help', 'exit-code']);

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: no command or help topic named "exit-code"/m);
    expect(result.stderr).toContain('environment, exit-codes, formatting, ci');
  });
});

const paths = commandPaths();
/** Every way of asking tkt for help: the program, each command, `help NAME` and each topic. */
const helpRequests = [
  ['--help'],
  ['help'],
  ['help', '--help'],
  ...paths.map((path) => [...path, '--help']),
  ...paths.filter((path) => path.length === 1).map((path) => ['help', path[0]!]),
  ...Object.keys(HELP_TOPICS).map((name) => ['help', name]),
];

const words = (text: string) => text.split(/\s+/).filter((word) => word !== '');

describe('help layout', () => {
  it('covers every command the program has (so a new command is checked without editing this test)', () => {
    expect(paths).toEqual(expect.arrayContaining([['list'], ['close'], ['config', 'set'], ['auth', 'token'], ['sandbox']]));
    // A command's own --help and `help NAME` for each top-level one (subcommands have no `help NAME`).
    expect(helpRequests.length).toBeGreaterThan(paths.length + paths.filter((path) => path.length === 1).length);
  });

  it.each(helpRequests.map((argv) => [argv.join(' '), argv] as const))('tkt %s fits 80 columns', async (_name, argv) => {
    const result = await h.cli(argv);

    expect(result.code).toBe(0);
    const over = result.stdout.split('\n').filter((line) => [...line].length > 80);
    expect(over, `lines over 80 columns in "tkt ${argv.join(' ')}"`).toEqual([]);
  });

  it.each(paths.map((path) => [path.join(' '), path] as const))('tkt %s --help is wrapped between words, never inside one', (_name, path) => {
    expect(words(helpOf(path))).toEqual(words(helpOf(path, 10_000)));
  });

  it.each(paths.map((path) => [path.join(' '), path] as const))(
    'tkt %s --help runs a sentence on past a colon: only a heading ends its line early with one',
    (_name, path) => {
      const lines = helpOf(path).split('\n');
      // A line ending with ":" with room left for the next line's first word was cut from its
      // sentence, unless it is a heading: a few words after a blank line.
      const heading = (index: number) => words(lines[index]!).length <= 3 && (lines[index - 1] ?? '').trim() === '';
      const cut = lines.filter((line, index) => {
        const next = lines[index + 1] ?? '';
        return line.endsWith(':') && !heading(index) && /^\S/.test(next) && line.length + 1 + words(next)[0]!.length <= 80;
      });
      expect(cut).toEqual([]);
    },
  );

  it('wraps the topics between words, never inside one', () => {
    for (const topic of Object.values(HELP_TOPICS)) expect(words(renderHelpTopic(topic, 80))).toEqual(words(renderHelpTopic(topic, 10_000)));
  });
});

describe('usage lines', () => {
  it("tkt assign's names the user after the IDs, left out to be asked at a terminal", async () => {
    const result = await h.cli(['assign', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: tkt assign \[options\] <id\.\.\.> \[user\]$/m);
  });
});
