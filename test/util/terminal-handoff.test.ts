// Taking the terminal back from a program (util/terminal-handoff.ts): what tkt writes to the
// terminal then, and that a dumb terminal (TERM=dumb), which would show escapes as text, gets none.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { handOverTerminal } from '../../src/util/terminal-handoff.js';

/** A terminal's stdin (raw mode recorded) and stdout (what tkt wrote), answering a status request as terminals do. */
function fakeTerminal() {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, isRaw: false, setRawMode: (raw: boolean) => void (stdin.isRaw = raw) });
  let written = '';
  const stdout = Object.assign(new PassThrough(), { isTTY: true });
  stdout.on('data', (chunk: Buffer) => {
    written += chunk.toString('latin1');
    if (chunk.toString('latin1').includes('\u001b[5n')) stdin.write('\u001b[0n');
  });
  return { stdin, stdout, written: () => written };
}

describe('handOverTerminal', () => {
  it('asks the terminal for its status and turns pastes and focus reports off after the program', async () => {
    const terminal = fakeTerminal();
    expect(await handOverTerminal(terminal, () => Promise.resolve('done'))).toBe('done');
    expect(terminal.written()).toContain('\u001b[5n');
    expect(terminal.written()).toContain('\u001b[?2004l');
  });

  it('writes nothing to a dumb terminal, which would show the escapes as text', async () => {
    const terminal = fakeTerminal();
    expect(await handOverTerminal({ ...terminal, cursorControl: false }, () => Promise.resolve('done'))).toBe('done');
    expect(terminal.written()).toBe('');
    expect(terminal.stdin.isRaw).toBe(false);
  });
});
