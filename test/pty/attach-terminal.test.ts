// `tkt attach ID /dev/stdin` with stdin a terminal: nothing typed there makes a file, and it
// would wait for bytes (or read for ever from a device), so it is exit 2 before any request,
// saying it is a terminal (README: Text values). util-linux `script` gives the terminal.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, terminalFixture, type TerminalFixture } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';

const skip = skipWithout(['script'], 'test/pty/attach-terminal.test.ts');
// The bound of a run: an attach reading the terminal would wait for ever.
const RUN_TIMEOUT_MS = 15_000;

describe.skipIf(skip)('tkt attach with stdin a terminal (script)', () => {
  let fixture: TerminalFixture;

  beforeAll(async () => {
    fixture = await terminalFixture('attach', 'admin');
  });

  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
    await fixture?.close();
  });

  it('refuses /dev/stdin, exit 2, naming it a terminal, before any request', async () => {
    const id = fixture.sandbox.state.tickets.find((t) => !t.isDeleted)!.id;
    const attachments = fixture.sandbox.state.attachments.length;
    const env: Record<string, string | undefined> = { ...process.env, TKT_CONFIG_DIR: fixture.dir, NO_COLOR: '1' };
    delete env.CI;
    const { screen, code } = await new Promise<{ screen: string; code: number | null }>((resolve) => {
      // -e: script exits with tkt's code; stdin from /dev/null types nothing.
      const child = execFile(
        'script',
        ['-qec', `exec node '${BIN}' attach ${id} /dev/stdin`, '/dev/null'],
        { env, timeout: RUN_TIMEOUT_MS, killSignal: 'SIGKILL' },
        (error, stdout) => {
          resolve({ screen: stdout.replaceAll('\r', ''), code: error === null ? 0 : ((error as { code?: number }).code ?? null) });
        },
      );
      child.stdin?.end();
    });
    expect(code, screen).toBe(2);
    expect(screen).toContain('/dev/stdin: a terminal, not a file or a pipe');
    expect(fixture.sandbox.state.attachments).toHaveLength(attachments);
  });
});
