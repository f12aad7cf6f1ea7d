// tkt under a terminal that reports no size (0 rows, 0 columns), as `script`, `docker run -t`
// and several CI runners give: tables are sized from $COLUMNS, else 80, and `tkt show` prints
// the ticket rather than start a pager nobody can answer. util-linux `script` gives the pty;
// `stty rows 0 cols 0` inside makes sure it reports no size, whatever script copied.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, terminalFixture, type TerminalFixture } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';

const skip = skipWithout(['script', 'stty'], 'test/pty/no-size.test.ts');
// The bound of a run: a pager waiting for keys nobody sends would hold it forever.
const RUN_TIMEOUT_MS = 15_000;
const TITLE = 'Printer on the third floor jams on every duplex job';

interface PtyRun {
  /** What the pty showed, carriage returns dropped. */
  screen: string;
  /** false when the run was stopped at the bound. */
  finished: boolean;
}

describe.skipIf(skip)('tkt at a terminal of size 0x0 (script)', () => {
  let fixture: TerminalFixture;
  let ticketId: number;

  beforeAll(async () => {
    fixture = await terminalFixture('nosize', 'admin');
    const ticket = fixture.sandbox.state.tickets.find((t) => !t.isDeleted)!;
    ticket.title = TITLE;
    // Far longer than any screen: less -F would stay open on it.
    ticket.description = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    ticketId = ticket.id;
  });

  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
    await fixture?.close();
  });

  /** `args` run by the built CLI in a 0x0 pty, with `env` added and PAGER, LESS, CI, COLUMNS, LINES unset. */
  function inPty(args: string, env: Record<string, string> = {}): Promise<PtyRun> {
    const command = `stty rows 0 cols 0; exec node '${BIN}' ${args}`;
    const clean: Record<string, string | undefined> = { ...process.env, TKT_CONFIG_DIR: fixture.dir, NO_COLOR: '1', ...env };
    for (const name of ['PAGER', 'LESS', 'CI', 'COLUMNS', 'LINES', 'FORCE_COLOR']) if (!(name in env)) delete clean[name];
    return new Promise((resolve) => {
      // script copies stdin into the pty: /dev/null gives it nothing to type.
      const child = execFile('script', ['-qfec', command, '/dev/null'], { env: clean, timeout: RUN_TIMEOUT_MS, killSignal: 'SIGKILL' }, (error, stdout) => {
        resolve({ screen: stdout.replaceAll('\r', ''), finished: error === null || !(error as { killed?: boolean }).killed });
      });
      child.stdin?.end();
    });
  }

  /** The row of `id` in a table on `screen`. */
  const rowOf = (screen: string, id: number) => screen.split('\n').find((line) => new RegExp(`^\\s*${id}\\s`).test(line));

  it('tkt list draws its table at $COLUMNS, else at 80 columns', async () => {
    const wide = await inPty('list --limit 50', { COLUMNS: '120' });
    expect(wide.finished).toBe(true);
    const lines = wide.screen.split('\n').filter((line) => line !== '');
    expect(lines[0]).toMatch(/^\s*ID\s+TITLE\s+STATUS/);
    expect(rowOf(wide.screen, ticketId)).toContain(TITLE);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(120);
    expect(Math.max(...lines.map((line) => line.length))).toBeGreaterThan(80);

    const unset = await inPty('list --limit 50');
    const unsetLines = unset.screen.split('\n').filter((line) => line !== '');
    expect(unsetLines[0]).toMatch(/^\s*ID\s+TITLE/);
    expect(Math.max(...unsetLines.map((line) => line.length))).toBeLessThanOrEqual(80);
    // The title keeps its 24 columns at 80: real text, not an ellipsis.
    expect(rowOf(unset.screen, ticketId)).toContain(TITLE.slice(0, 20));
  });

  it('tkt status draws its urgent table at $COLUMNS, else at 80 columns', async () => {
    const wide = await inPty('status', { COLUMNS: '120' });
    expect(wide.finished).toBe(true);
    const urgent = wide.screen.slice(wide.screen.indexOf('Most urgent'));
    expect(urgent).toMatch(/\n\s+ID\s+DUE\s+PRIORITY\s+STATUS\s+TITLE\n/);
    // Every ticket row shows words, not "…" alone.
    const rows = urgent
      .split('\n')
      .slice(2)
      .filter((line) => line.trim() !== '');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatch(/^\s+\d+\s+\S.*\s[A-Za-z]{3,}/);

    const unset = await inPty('status');
    const unsetRows = unset.screen
      .slice(unset.screen.indexOf('Most urgent'))
      .split('\n')
      .slice(2)
      .filter((line) => line.trim() !== '');
    for (const row of unsetRows) expect(row.length).toBeLessThanOrEqual(80);
    expect(unsetRows[0]).toMatch(/^\s+\d+\s+\S/);
  });

  it('tkt show prints the ticket without starting a pager, and exits', { timeout: RUN_TIMEOUT_MS + 5_000 }, async () => {
    const shown = await inPty(`show ${ticketId}`);
    expect(shown.finished, `tkt show did not finish within ${RUN_TIMEOUT_MS} ms:\n${shown.screen.slice(-500)}`).toBe(true);
    expect(shown.screen).toContain(TITLE);
    // The whole description, to its last word: nothing waited on a pager.
    expect(shown.screen).toContain('word399');
    // Wrapped to 80 columns, the fallback width.
    for (const line of shown.screen.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });
});
