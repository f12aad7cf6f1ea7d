// `tkt close -` reading the IDs typed at a real terminal (tmux, private socket), against a sandbox:
// Ctrl-D ends the list, and a Ctrl-C among them ends the run with its summary on a line of its
// own under the terminal's "^C". Every step waits for the screen.
import { describe, expect, it } from 'vitest';
import { BIN, useTerminal, type TerminalFixture } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';

const skip = skipWithout(['tmux'], 'test/pty/ids-terminal.test.ts');

describe.skipIf(skip)('tkt close - with the IDs typed at a terminal', () => {
  let fixture: TerminalFixture;
  const terminal = useTerminal('ids-terminal', 'admin', (made) => {
    fixture = made;
  });
  const asked = 'reading ticket IDs from the terminal, one a line; Ctrl-D to end';
  // The sandbox's status IDs (src/sandbox/demo.ts): each test takes an open ticket of its own.
  const OPEN = 1;
  const CLOSED = 7;
  const taken = new Set<number>();
  const openTicket = () => {
    const ticket = fixture.sandbox.state.tickets.find((t) => !t.isDeleted && t.ticketStatusId === OPEN && !taken.has(t.id))!;
    taken.add(ticket.id);
    return ticket;
  };
  const statusOf = (id: number) => fixture.sandbox.state.tickets.find((t) => t.id === id)!.ticketStatusId;

  /** `after`: what the shell runs once tkt exits, before it waits. */
  const start = async (session: string, after = '') => {
    const env = `env -u CI -u NODE_EXTRA_CA_CERTS NO_COLOR=1 TKT_CONFIG_DIR='${fixture.dir}'`;
    await terminal.start(session, { width: 100, height: 20 }, `${env} node '${BIN}' close -; echo "[exit $?]"; ${after} sleep 60`);
    await terminal.waitFor(session, asked, { what: 'the line that asks for the IDs' });
  };

  it('closes the tickets typed once Ctrl-D ends the list', async () => {
    const ticket = openTicket();
    await start('d1');
    await terminal.type('d1', String(ticket.id));
    await terminal.keys('d1', 'Enter');
    await terminal.keys('d1', 'C-d');

    const screen = await terminal.waitFor('d1', '[exit 0]');

    expect(screen).toContain(`✓ #${ticket.id} closed`);
    expect(statusOf(ticket.id)).toBe(CLOSED);
  });

  // A user typed `1025⏎ 10x26⏎ 1027⏎` quickly: tkt ended at line 2, the shell ran "1027" as a
  // command, and the Ctrl-D tkt had asked for logged them out. What follows tkt here reads the
  // line it left, as the shell would.
  it('reads on after a bad line until Ctrl-D, leaving nothing typed to the shell, then refuses it', async () => {
    const [first, last] = [openTicket(), openTicket()];
    await start('b1', 'read -r left; echo "[left: $left]";');
    for (const line of [String(first.id), '10x26', String(last.id)]) {
      await terminal.type('b1', line);
      await terminal.keys('b1', 'Enter');
    }
    await terminal.keys('b1', 'C-d');
    await terminal.waitFor('b1', '[exit 2]');
    await terminal.type('b1', 'typed after');
    await terminal.keys('b1', 'Enter');

    const screen = await terminal.waitFor('b1', '[left: ');

    expect(screen.trimEnd().split('\n')).toEqual([
      asked,
      String(first.id),
      '10x26',
      String(last.id),
      'error: stdin line 2 has no ticket ID: "10x26"',
      '[exit 2]',
      'typed after',
      '[left: typed after]',
    ]);
    expect([statusOf(first.id), statusOf(last.id)]).toEqual([OPEN, OPEN]);
  });

  // The summary was written right after the "^C" the terminal echoed, on its line.
  it('ends at Ctrl-C with the IDs typed not started, the summary under the "^C"', async () => {
    const ticket = openTicket();
    await start('c1');
    await terminal.type('c1', String(ticket.id));
    await terminal.keys('c1', 'Enter');
    await terminal.waitFor('c1', new RegExp(`^${ticket.id}$`, 'm'), { what: 'the ID echoed' });
    await terminal.keys('c1', 'C-c');

    const screen = await terminal.waitFor('c1', '[exit 130]');

    expect(screen.trimEnd().split('\n')).toEqual([
      asked,
      String(ticket.id),
      '^C',
      'error: interrupted: 0 of 1 done, 1 not started',
      `  not started: #${ticket.id}`,
      'hint: to finish, run again for the IDs not started, listed above',
      '[exit 130]',
    ]);
    expect(statusOf(ticket.id)).toBe(OPEN);
  });
});
