// tkt triage on a profile other than the default, on a real terminal (tmux, private socket)
// against a sandbox: the profile on the title line and in close's question; a token the service stops accepting (a new
// signing key) said with the login hint, the notes typed meanwhile kept; `tkt login` in another
// shell, after which the screen goes on without quitting; and the notes saved on quit under the
// profile's name. Every step waits for what the screen shows, never for a fixed time.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loginAs } from '../helpers/harness.js';
import { BIN, useTerminal, type TerminalFixture } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';

const skip = skipWithout(['tmux'], 'test/pty/triage-login.test.ts');

describe.skipIf(skip)('tkt --profile prod triage', () => {
  let fixture: TerminalFixture;
  const terminal = useTerminal('triage-login', 'tech', async (made) => {
    fixture = made;
    // Two profiles: the default one (the fixture's) and prod, on the same sandbox.
    await loginAs(fixture.sandbox, fixture.dir, 'tech', 'prod');
  });
  const waitFor = (test: RegExp | ((text: string) => boolean), what: string) => terminal.waitFor('t1', test, { what });
  /** The status line, the one above the keys. */
  const status = (text: string) => text.replace(/\n+$/, '').split('\n').at(-2) ?? '';

  it('names the profile (title, close), says which login to make on a 401, and goes on once it is made in another shell', async () => {
    const command = `env -u CI -u TKT_TOKEN -u TKT_PROFILE NO_COLOR=1 TKT_CONFIG_DIR='${fixture.dir}' node '${BIN}' --profile prod triage; echo "[exit $?]"; sleep 60`;
    await terminal.start('t1', { width: 150, height: 30 }, command);
    const first = await waitFor((text) => /^› +\d+ /m.test(text) && /^Title: /m.test(text), 'the first ticket and its detail');
    expect(first.split('\n')[0]).toMatch(/^tkt triage · profile prod · my-open-or-unassigned · \d+ tickets/);
    const id = /^› +(\d+) /m.exec(first)![1]!;

    // Closing asks on which service.
    await terminal.keys('t1', 'c');
    await waitFor(new RegExp(`Close #${id} on profile prod\\? \\(y/n\\)`), "close's question naming the profile");
    await terminal.keys('t1', 'n');
    await waitFor((text) => status(text) === 'nothing was changed', 'the question declined');

    await terminal.keys('t1', 's');
    await waitFor(/Resolution notes for #\d+/, 'the notes prompt');
    // While the notes are typed, the service restarts with a new signing key: the token the screen holds is refused.
    fixture.sandbox.state.secret = 'a new signing key';
    await terminal.type('t1', 'Cable reseated');
    await terminal.keys('t1', 'Enter');
    const refused = await waitFor((text) => status(text).startsWith('✗ resolving'), 'the refusal');
    expect(status(refused)).toBe(`✗ resolving #${id}: not authenticated, HTTP 401; run "tkt login --profile prod"; your notes are kept: s opens them again`);

    // As the hint says, in another shell.
    const tech = fixture.sandbox.demoLogins.find((login) => login.username === 'tech')!;
    const login = promisify(execFile)('node', [BIN, '--profile', 'prod', 'login', '-u', 'tech', '--password-stdin'], {
      env: { ...process.env, TKT_CONFIG_DIR: fixture.dir, CI: '1', TKT_TOKEN: '', TKT_PROFILE: '' },
    });
    login.child.stdin!.end(`${tech.password}\n`);
    await login;

    await terminal.keys('t1', 'p');
    const picked = await waitFor((text) => status(text).startsWith('✓'), 'the pickup done with the new login');
    expect(status(picked)).toMatch(new RegExp(`^✓ (picked up #${id}|#${id} already assigned)`));

    // The notes kept from the refused send are saved under the profile's name on quit.
    await terminal.keys('t1', 'q');
    const text = await waitFor(/\[exit \d+\]/, 'the exit');
    expect(text).toContain('[exit 0]');
    const notes = join(fixture.dir, 'drafts', `prod-resolution-${id}.txt`);
    expect(text.replace(/\n/g, '')).toContain(`warning: the resolution of #${id} was not sent; it is saved in ${notes}`);
    expect(readFileSync(notes, 'utf8')).toBe('Cable reseated\n');
  });

  // The service has no logout: the token triage holds would still be taken. An action reads the
  // saved login again, as every read of the view does, so that it is refused as R's read is.
  it('refuses an action once `tkt logout` in another shell deleted the login, as it refuses R', async () => {
    await loginAs(fixture.sandbox, fixture.dir, 'tech', 'gone');
    const command = `env -u CI -u TKT_TOKEN -u TKT_PROFILE NO_COLOR=1 TKT_CONFIG_DIR='${fixture.dir}' node '${BIN}' --profile gone triage; echo "[exit $?]"; sleep 60`;
    await terminal.start('t2', { width: 150, height: 30 }, command);
    const first = await terminal.waitFor('t2', (text) => /^› +\d+ /m.test(text) && /^Title: /m.test(text), { what: 'the first ticket' });
    const id = /^› +(\d+) /m.exec(first)![1]!;
    const before = fixture.sandbox.state.tickets.find((ticket) => ticket.id === Number(id))!.assignedUser;

    await promisify(execFile)('node', [BIN, '--profile', 'gone', 'logout'], {
      env: { ...process.env, TKT_CONFIG_DIR: fixture.dir, CI: '1', TKT_TOKEN: '', TKT_PROFILE: '' },
    });
    await terminal.keys('t2', 'p');

    const refused = await terminal.waitFor('t2', (text) => status(text).startsWith('✗ picking up'), { what: 'the pickup refused' });
    expect(status(refused)).toMatch(new RegExp(`^✗ picking up #${id}: not logged in \\(profile gone\\)`));
    expect(fixture.sandbox.state.tickets.find((ticket) => ticket.id === Number(id))!.assignedUser).toBe(before);
  });
});
