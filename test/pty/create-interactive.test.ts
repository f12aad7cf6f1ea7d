// Drives the real built binary on a real pseudo-terminal (tmux): the @inquirer prompts,
// raw-mode keys, and the whole path from the first prompt to a created ticket.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { skipWithout } from '../helpers/tools.js';
import { BIN, useTerminal, waitForLeftBehind, type TerminalFixture } from '../helpers/terminal.js';

describe.skipIf(skipWithout(['tmux'], 'test/pty/create-interactive.test.ts'))('tkt create on a terminal', () => {
  let fixture: TerminalFixture;
  const terminal = useTerminal('create', 'admin', (made) => {
    fixture = made;
  });
  let sessions = 0;

  /** Starts `tkt create` in a new session (200x50 unless told); the pane stays after exit to show the code. */
  async function startCreate(size = { width: 200, height: 50 }): Promise<string> {
    sessions += 1;
    const name = `create-${sessions}`;
    // CI=true in CI would (rightly) turn prompting off: the terminal here is real.
    const command = `env -u CI NO_COLOR=1 TKT_CONFIG_DIR='${fixture.dir}' node '${BIN}' create; echo "[exit $?]"; sleep 60`;
    await terminal.start(name, size, command);
    return name;
  }

  /** The screen (with 100 lines of scrollback) once it shows `text`. */
  const waitFor = (session: string, text: string) => terminal.waitFor(session, text, { what: `"${text}"`, capture: ['-S', '-100'] });
  const type = terminal.type;
  const keys = terminal.keys;

  /** The ticket that `session` says it created, once tkt exited 0 there. */
  async function createdTicket(session: string) {
    const shown = await waitFor(session, '[exit ');
    expect(shown).toContain('[exit 0]');
    const id = Number(/Created ticket #(\d+)/.exec(shown)?.[1]);
    return fixture.sandbox.state.tickets.find((t) => t.id === id);
  }
  /** Waits for the question `? QUESTION`, types `text` and presses Enter. */
  async function answer(session: string, question: string, text: string) {
    await waitFor(session, `? ${question}`);
    await type(session, text);
    await keys(session, 'Enter');
  }
  const user = (username: string) => fixture.sandbox.state.users.find((u) => u.username === username)?.id;

  it('asks for every field, from the first prompt to a created ticket', async () => {
    const s = await startCreate();
    await answer(s, 'Title', 'Typed on a real terminal');
    await answer(s, 'Description', 'Keyboard sticks');
    await waitFor(s, '? Requester');
    // Typed together with Enter, in one write (fast typing, a paste): the Enter takes the first
    // match of the whole search.
    await type(s, 'anna lind\r');
    await waitFor(s, '? Site');
    await keys(s, 'Down');
    await keys(s, 'Enter');
    await waitFor(s, '? Department');
    await keys(s, 'Enter');
    await waitFor(s, '? Status');
    await keys(s, 'Enter');
    await waitFor(s, '? Priority');
    for (let i = 0; i < 3; i += 1) await keys(s, 'Down');
    await keys(s, 'Enter');
    await waitFor(s, '? Category');
    await keys(s, 'Enter');
    await waitFor(s, '? Group');
    await keys(s, 'Enter');
    await waitFor(s, '? Assignee');
    await type(s, 'tom');
    await waitFor(s, '❯ Tom Tech (tech)');
    await keys(s, 'Enter');
    // The summary in the prompts' words, then the question: Enter takes its default, yes.
    const summary = await waitFor(s, '? Create this ticket?');
    expect(summary).toMatch(/^ {2}Requester: +Anna Lind \([-\w]+\)$/m);
    expect(summary).toMatch(/^ {2}Status: +Open \(1\)$/m);
    expect(summary).toMatch(/^ {2}Type: +ticket$/m);
    expect(summary).not.toMatch(/CreatorId|TicketStatusId|TicketType/);
    await keys(s, 'Enter');
    const created = await createdTicket(s);
    expect(created).toMatchObject({
      title: 'Typed on a real terminal',
      description: 'Keyboard sticks',
      creatorId: user('alind'),
      siteId: 2,
      departmentId: 1,
      ticketStatusId: 1,
      ticketPriorityId: 3,
      ticketCategoryId: null,
      groupId: null,
      assignedUser: user('tech'),
      source: 'Manual',
    });
  });

  it('keeps keys typed ahead: the whole form in one write fills every prompt in turn', async () => {
    const s = await startCreate();
    await waitFor(s, '? Title');
    // Typed faster than the prompts come (or pasted): what follows each Enter, and what comes
    // while the next prompt loads its list, is the next prompt's, as at a shell. The Down arrow
    // (an escape sequence) at the site list must arrive whole.
    const down = '\x1b[B';
    await type(s, ['Fast title', 'Fast description', 'anna lind', `${down}`, '', '', `${down}${down}`, '', '', 'tom', ''].join('\r') + '\r');
    const created = await createdTicket(s);
    expect(created).toMatchObject({
      title: 'Fast title',
      description: 'Fast description',
      creatorId: user('alind'),
      siteId: 2,
      departmentId: 1,
      ticketStatusId: 1,
      ticketPriorityId: 2,
      ticketCategoryId: null,
      groupId: null,
      assignedUser: user('tech'),
    });
  });

  it('Ctrl-C at a prompt exits 130 and creates nothing', async () => {
    const count = fixture.sandbox.state.tickets.length;
    const s = await startCreate();
    await answer(s, 'Title', 'Never created');
    await waitFor(s, '? Description');
    await keys(s, 'C-c');
    const shown = await waitFor(s, '[exit ');
    expect(shown).toContain('[exit 130]');
    expect(fixture.sandbox.state.tickets.length).toBe(count);
  });

  it('Ctrl-C at a picker erases it: none of its choices is left on the screen or in the scrollback', async () => {
    const s = await startCreate();
    await answer(s, 'Title', 'Never created');
    await answer(s, 'Description', 'Never sent');
    await waitFor(s, '? Requester');
    await type(s, 'anna lind\r');
    await waitFor(s, 'Harbour Depot');
    await keys(s, 'C-c');
    const shown = await waitFor(s, '[exit ');
    expect(shown).toContain('[exit 130]');
    // The questions answered stay, each as its one line; the one interrupted is gone, the description
    // typed is kept in drafts/ (README, Drafts), and the error says why.
    expect(shown).toMatch(
      /^✔ Title Never created\n✔ Description .*Never sent\n✔ Requester Anna Lind \([-\w]+\)\nyour description was saved to (\S+drafts\/description\.txt)\nhint: send it with "tkt create --title 'Never created' --requester [-\w]+ --description-file \1"\nerror: interrupted\n\[exit 130\]$/m,
    );
    expect(shown).not.toMatch(/Site|Head Office|Harbour Depot|navigate/);
  });

  it('Esc at a picker cancels: the picker erased, exit 1 (not interrupted), nothing created, the description kept', async () => {
    const count = fixture.sandbox.state.tickets.length;
    const s = await startCreate();
    await answer(s, 'Title', 'Never created either');
    await answer(s, 'Description', 'Never sent either');
    await waitFor(s, '? Requester');
    await type(s, 'anna lind\r');
    await waitFor(s, 'Harbour Depot');
    await keys(s, 'Escape');
    const shown = await waitFor(s, '[exit ');
    expect(shown).toMatch(
      /^✔ Requester Anna Lind \([-\w]+\)\nyour description was saved to \S+drafts\/description(-\d+)?\.txt\nhint: .*\nerror: cancelled: Esc closed the question\n\[exit 1\]$/m,
    );
    expect(shown).not.toMatch(/Site|Head Office|Harbour Depot|navigate|interrupted/);
    expect(fixture.sandbox.state.tickets.length).toBe(count);
  });

  it('keeps the description being typed when Ctrl-C ends it at its prompt, with the title answered in the command that sends it', async () => {
    const s = await startCreate();
    await answer(s, 'Title', 'Half typed');
    await waitFor(s, '? Description');
    await type(s, 'The screen flickers when');
    await waitFor(s, 'flickers when');
    await keys(s, 'C-c');
    const shown = await waitFor(s, '[exit ');
    const saved = /^your description was saved to (\S+drafts\/description(-\d+)?\.txt)$/m.exec(shown)?.[1];
    expect(saved, shown).toBeDefined();
    expect(shown).toContain(`hint: send it with "tkt create --title 'Half typed' --description-file ${saved}"\nerror: interrupted\n[exit 130]`);
    expect(shown).not.toMatch(/^\? Description/m);
    expect(readFileSync(saved!, 'utf8')).toBe('The screen flickers when\n');
  });

  // A closed terminal fails readline's return from raw mode, and the prompt's drawing, with EIO:
  // unheard, those errors ended the run before the SIGHUP that comes with them kept the text.
  it('keeps the description typed in drafts/ when the terminal closes under a question (a real hang-up)', async () => {
    const s = await startCreate();
    await answer(s, 'Title', 'Closed terminal');
    await answer(s, 'Description', 'Typed before the terminal closed');
    await waitFor(s, '? Requester');
    const drafts = join(fixture.dir, 'drafts');
    const kept = () =>
      existsSync(drafts) && readdirSync(drafts).some((name) => readFileSync(join(drafts, name), 'utf8').includes('Typed before the terminal closed'));

    await terminal.tmux('kill-session', '-t', s);

    await waitForLeftBehind(kept, `a draft in ${drafts} holding the description typed`);
  });

  it('fits a picker to a short terminal: moving in it and Ctrl-C leave nothing of it in the scrollback', async () => {
    const s = await startCreate({ width: 80, height: 8 });
    await answer(s, 'Title', 'Never created');
    await answer(s, 'Description', 'Never sent');
    await waitFor(s, '? Requester');
    await keys(s, 'Down');
    await keys(s, 'Down');
    const picker = await waitFor(s, '❯ Pia Private');
    // Drawn again on each move, a picker taller than the screen would leave a copy of its top each time.
    expect(picker.match(/\? Requester/g)).toHaveLength(1);
    await keys(s, 'C-c');
    const shown = await waitFor(s, '[exit ');
    expect(shown).toContain('[exit 130]');
    expect(shown).not.toMatch(/Requester|Ada Admin|navigate/);
  });

  it.skipIf(skipWithout(['pgrep'], 'test/pty/create-interactive.test.ts (SIGTERM)'))(
    'SIGTERM at a prompt (a cancelled job) closes the prompt, exits 143 and creates nothing',
    async () => {
      const count = fixture.sandbox.state.tickets.length;
      const s = await startCreate();
      await waitFor(s, '? Title');
      // The pane's shell runs `node ... create`: its one node child is tkt.
      const pane = (await terminal.tmux('display-message', '-p', '-t', s, '#{pane_pid}')).trim();
      // By parent only: Node 24 names its main thread, so the process is not called "node" there.
      const { stdout } = await promisify(execFile)('pgrep', ['-P', pane]);
      process.kill(Number(stdout.trim().split('\n')[0]), 'SIGTERM');
      const shown = await waitFor(s, '[exit ');
      expect(shown).toContain('[exit 143]');
      expect(fixture.sandbox.state.tickets.length).toBe(count);
    },
  );
});
