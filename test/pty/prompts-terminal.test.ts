// tkt's prompts (@inquirer, outside triage) on a real terminal (tmux, private socket) in an
// interactive bash with job control, against a sandbox: Ctrl-Z suspends a prompt to the shell,
// and `fg` draws it again, taking keys, with what was typed. Every step waits for the screen.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, useTerminal, type TerminalFixture } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';

const skip = skipWithout(['tmux', 'bash'], 'test/pty/prompts-terminal.test.ts');

describe.skipIf(skip)('tkt prompts and the terminal', () => {
  let fixture: TerminalFixture;
  const terminal = useTerminal('prompts-terminal', 'admin', (made) => {
    fixture = made;
  });
  let sessions = 0;
  const ticket = (id: number) => fixture.sandbox.state.tickets.find((t) => t.id === id)!;
  const omar = () => fixture.sandbox.state.users.find((user) => user.username === 'ohaddad')!.id;
  const firstTicket = () => fixture.sandbox.state.tickets.find((t) => t.deletedOn === null && t.assignedUser !== omar())!.id;
  /** The sandbox's status Open. */
  const OPEN = 1;
  /** The first (or last) open ticket: one `tkt resolve` asks notes for. */
  const openTicket = (which: 'first' | 'last' = 'first') => {
    const open = fixture.sandbox.state.tickets.filter((t) => t.deletedOn === null && t.ticketStatusId === OPEN);
    return (which === 'first' ? open[0] : open.at(-1))!.id;
  };
  /** The screen's text with its lines joined: a long line wraps at 80 columns. */
  const joined = (text: string) => text.replace(/\n/g, '');

  /** An interactive bash (job control) at 80x30 with `tkt ARGS` typed and started in it. */
  async function shellRunning(args: string, width = 80) {
    sessions += 1;
    const name = `p${sessions}`;
    await terminal.start(name, { width, height: 30 }, 'env -u CI PS1="$ " bash --norc --noprofile -i');
    await terminal.waitFor(name, /^\$ ?$/m, { what: "the shell's prompt" });
    // The command alone: after `cmd; echo`, bash runs the echo when cmd stops.
    await terminal.type(name, `env NO_COLOR=1 TKT_CONFIG_DIR='${fixture.dir}' node '${BIN}' ${args}`);
    await terminal.keys(name, 'Enter');
    return {
      name,
      waitFor: (test: RegExp | ((text: string) => boolean), what: string) => terminal.waitFor(name, test, { what }),
      keys: (...names: string[]) => terminal.keys(name, ...names),
      type: (text: string) => terminal.type(name, text),
      /** Ctrl-Z, then `fg` once the shell says the job stopped; the screen from the stop on. */
      async suspendAndContinue(): Promise<void> {
        await terminal.keys(name, 'C-z');
        const stopped = await terminal.waitFor(name, /^\[1\]\+ +Stopped /m, { what: 'the job stopped' });
        // The prompt was closed before the stop: the shell's line overwrote none of it.
        expect(stopped.split(/^\[1\]\+ +Stopped /m)[1]).not.toContain('navigate');
        await terminal.type(name, 'fg');
        await terminal.keys(name, 'Enter');
      },
      /** The screen after the `fg` line. */
      afterFg: (text: string) => text.split(/^\$ fg$/m)[1] ?? '',
      async exitCode(): Promise<string> {
        await terminal.waitFor(name, (text) => /(^|\n)\$ ?\n*$/.test(text), { what: 'the shell after tkt' });
        await terminal.type(name, 'echo "[exit $?]"');
        await terminal.keys(name, 'Enter');
        return /^\[exit (\d+)\]/m.exec(await terminal.waitFor(name, /^\[exit \d+\]/m, { what: 'the exit' }))![1]!;
      },
    };
  }

  it('draws a picker again on fg after Ctrl-Z, with what was typed, and takes keys', async () => {
    const id = firstTicket();
    const shell = await shellRunning(`assign ${id}`);
    await shell.waitFor(new RegExp(`^\\? Assign #${id} to`, 'm'), 'the picker');
    await shell.type('om');
    const ranked = await shell.waitFor(new RegExp(`^\\? Assign #${id} to om$`, 'm'), 'om typed');
    // As triage's picker and the README order them: a name that starts with it first.
    expect(ranked).toMatch(/^❯ Omar Haddad/m);
    await shell.suspendAndContinue();
    await shell.waitFor(
      (text) => new RegExp(`^\\? Assign #${id} to om$`, 'm').test(shell.afterFg(text)) && /navigate/.test(shell.afterFg(text)),
      'the picker again with om',
    );
    await shell.type('ar');
    await shell.waitFor(
      (text) => new RegExp(`^\\? Assign #${id} to omar$`, 'm').test(shell.afterFg(text)) && !shell.afterFg(text).includes('Tom Tech'),
      'omar typed after fg',
    );
    await shell.keys('Enter');
    expect(await shell.exitCode()).toBe('0');
    expect(ticket(id).assignedUser).toBe(omar());
  });

  it('takes the answer of a confirm typed before Ctrl-Z, with Enter after fg', async () => {
    const id = firstTicket();
    const typed = new RegExp(`^\\? Delete ticket #${id}\\? \\(y/N\\) y$`, 'm');
    const shell = await shellRunning(`delete ${id}`);
    await shell.waitFor(new RegExp(`^\\? Delete ticket #${id}\\?`, 'm'), 'the confirm');
    await shell.type('y');
    await shell.waitFor(typed, 'y typed');
    await shell.suspendAndContinue();
    await shell.waitFor((text) => typed.test(shell.afterFg(text)), 'the confirm again with y');
    await shell.keys('Enter');
    expect(await shell.exitCode()).toBe('0');
    expect(ticket(id).deletedOn).not.toBeNull();
  });

  it('keeps a title typed before Ctrl-Z in tkt create', async () => {
    const shell = await shellRunning('create');
    await shell.waitFor(/^\? Title/m, 'the title prompt');
    await shell.type('Printer on fire');
    await shell.suspendAndContinue();
    await shell.waitFor((text) => /^\? Title.*Printer on fire$/m.test(shell.afterFg(text)), 'the title again');
    await shell.type(' again');
    await shell.waitFor((text) => /^\? Title.*Printer on fire again$/m.test(shell.afterFg(text)), 'the title typed on');
    await shell.keys('C-c');
    expect(await shell.exitCode()).toBe('130');
  });

  it('keeps the resolution notes typed at the prompt when Ctrl-C ends tkt resolve, saying where and how to send them', async () => {
    const id = openTicket();
    const shell = await shellRunning(`resolve ${id}`, 200);
    await shell.waitFor(new RegExp(`^\\? Resolution details for #${id}`, 'm'), 'the notes prompt');
    await shell.type('Replaced the mouse, tested OK');
    await shell.waitFor(/tested OK$/m, 'the notes typed');
    await shell.keys('C-c');
    expect(await shell.exitCode()).toBe('130');
    const saved = join(fixture.dir, 'drafts', `resolution-${id}.txt`);
    const screen = await shell.waitFor(/^\[exit 130\]/m, 'the exit');
    // As create keeps its description (README, Drafts): the line erased, where the notes are, the command that sends them.
    expect(screen).toContain(
      [`your resolution notes were saved to ${saved}`, `hint: send it with "tkt resolve ${id} --details-file ${saved}"`, 'error: interrupted'].join('\n'),
    );
    expect(screen).not.toMatch(/^\? Resolution details/m);
    expect(readFileSync(saved, 'utf8')).toBe('Replaced the mouse, tested OK\n');
    expect(ticket(id).ticketStatusId).toBe(OPEN);
  });

  it('cancels at Esc in a line prompt: exit 1, never said to be interrupted, and what follows is not typed into it', async () => {
    const shell = await shellRunning('create');
    await shell.waitFor(/^\? Title/m, 'the title prompt');
    await shell.type('Printer');
    await shell.waitFor(/^\? Title.*Printer$/m, 'the title typed');
    const tickets = fixture.sandbox.state.tickets.length;
    await shell.keys('Escape');
    expect(await shell.exitCode()).toBe('1');
    const screen = await shell.waitFor(/^\[exit 1\]/m, 'the exit');
    expect(screen).toContain('error: cancelled: Esc closed the question');
    expect(screen).not.toContain('interrupted');
    expect(screen).not.toMatch(/^\? Title/m);
    expect(fixture.sandbox.state.tickets.length).toBe(tickets);
  });

  it('keeps resolution notes typed when Esc cancels their prompt, as Ctrl-C keeps them', async () => {
    const id = openTicket('last');
    const saved = join(fixture.dir, 'drafts', `resolution-${id}.txt`);
    const shell = await shellRunning(`resolve ${id}`);
    await shell.waitFor(new RegExp(`^\\? Resolution details for #${id}`, 'm'), 'the notes prompt');
    await shell.type('Reseated the cable');
    await shell.waitFor(/the cable$/m, 'the notes typed');
    await shell.keys('Escape');
    expect(await shell.exitCode()).toBe('1');
    const screen = joined(await shell.waitFor(/^\[exit 1\]/m, 'the exit'));
    expect(screen).toContain(
      `your resolution notes were saved to ${saved}hint: send it with "tkt resolve ${id} --details-file ${saved}"error: cancelled: Esc closed the question`,
    );
    expect(existsSync(saved) && readFileSync(saved, 'utf8')).toBe('Reseated the cable\n');
  });
});
