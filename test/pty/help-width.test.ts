// --help at real terminals (tmux, private socket): prepared for 80 columns, laid out again for a
// narrower terminal, so that no line wraps in the middle of a word, and an example stays
// something to copy; at 80 columns or more, and in a pipe, the prepared text as it is. The bin's
// prepared help (dist/start.cjs) and commander's (a command line the bin leaves to the CLI) alike.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt, privateTmux } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';

const skip = skipWithout(['tmux'], 'test/pty/help-width.test.ts');
// Taller than any help: the whole of it on the screen.
const HEIGHT = 150;

describe.skipIf(skip)('--help at a terminal', () => {
  const terminal = privateTmux('help');
  beforeAll(ensureBuilt);
  afterAll(() => terminal.close());
  let sessions = 0;

  /** The screen after `args` at a terminal `width` wide, wrapped lines joined (-J): a line longer than `width` was wrapped by the terminal. */
  async function helpAt(width: number, args: string): Promise<string[]> {
    sessions += 1;
    const name = `h${sessions}`;
    await terminal.start(
      name,
      { width, height: HEIGHT },
      `env -u COLUMNS NO_COLOR=1 TKT_CONFIG_DIR=/nonexistent node '${BIN}' ${args}; echo "[exit $?]"; sleep 60`,
    );
    const screen = await terminal.waitFor(name, /^\[exit \d+\]$/m, { what: `tkt ${args} ending`, capture: ['-J'] });
    const lines = screen.split('\n');
    return lines.slice(
      0,
      lines.findIndex((line) => line.startsWith('[exit ')),
    );
  }

  const piped = (args: string) =>
    execFileSync('node', [BIN, ...args.split(' ')], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', TKT_CONFIG_DIR: '/nonexistent' } });

  it.each([
    ['the prepared help', 'list --help'],
    ["commander's help", '--no-color list --help'],
  ])('%s at 60 columns: every line within them, no word broken, examples whole', async (_path, args) => {
    const lines = await helpAt(60, args);

    expect(lines[0]).toBe('Usage: tkt list [options]');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(lines).toContain('  $ tkt list --all --status open --assignee none --sort \\');
    expect(lines).toContain('      -created');
    // A list of names, re-wrapped as one.
    expect(lines).toContain('  all-my-groups, my-open-or-unassigned, unassigned-tickets,');
    expect(lines).toContain('  my-open-tickets, my-tickets-onhold, my-overdue-tickets,');
    expect(lines).toContain('  $ tkt list --all --created-after -7d --csv --columns \\');
    expect(lines).toContain('      id,title,due > week.csv');
    // The same words as the prepared help, in the same order.
    expect(lines.join(' ').replace(/ \\ /g, ' ').split(/\s+/).filter(Boolean)).toEqual(
      piped('list --help').replace(/ \\\n/g, ' ').split(/\s+/).filter(Boolean),
    );
  });

  it("lays the program's help out for 60 columns too, by the same code on both paths", async () => {
    const prepared = await helpAt(60, '--help');
    const viaCommander = await helpAt(60, '--no-color --help');

    for (const line of prepared) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(prepared).toEqual(viaCommander);
  });

  it('prints the prepared help as it is at 100 columns', async () => {
    expect((await helpAt(100, 'list --help')).join('\n')).toBe(piped('list --help').trimEnd());
  });
});
