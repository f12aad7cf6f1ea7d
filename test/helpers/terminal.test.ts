// The private tmux server of the terminal tests outlives its sessions: a test's second session
// never races the server's exit after the first one ended ("server exited unexpectedly", seen
// in CI on test/pty/triage-desk.test.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { privateTmux } from './terminal.js';
import { skipWithout } from './tools.js';

const skip = skipWithout(['tmux'], 'test/helpers/terminal.test.ts');
const t = privateTmux('server-test');
afterAll(() => t.close());

/** The sessions the server has, or undefined when no server runs. */
async function sessions(): Promise<string | undefined> {
  try {
    return await t.tmux('list-sessions', '-F', '#{session_name}');
  } catch {
    return undefined;
  }
}

describe.skipIf(skip)('privateTmux', () => {
  it('keeps its server when the last session ends, for the next session', async () => {
    await t.start('first', { width: 40, height: 5 }, 'read line');
    const server = await t.tmux('display-message', '-p', '-t', 'first', '#{pid}');
    await t.keys('first', 'Enter');
    for (let list = await sessions(); list?.includes('first') === true; list = await sessions()) await new Promise((r) => setTimeout(r, 20));
    expect(await sessions()).toBe('');
    await t.start('second', { width: 40, height: 5 }, 'read line');
    expect(await t.tmux('display-message', '-p', '-t', 'second', '#{pid}')).toBe(server);
  });
});
