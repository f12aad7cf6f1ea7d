// Completion in the shells themselves (README, Install): the script `tkt completion SHELL` prints,
// installed as the README says, driven by Tab in an interactive shell under tmux.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShellSession, toolsFor, type ShellSession } from '../helpers/shell-tty.js';
import { skipWithout } from '../helpers/tools.js';

/** `text` as a regular expression that matches it literally. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A screen test: every one of `words` shows as a word. */
const showsAll =
  (...words: string[]) =>
  (screen: string) =>
    words.every((word) => new RegExp(`(^|\\s)${literal(word)}(\\s|$)`, 'm').test(screen));

// How each shell writes Sam O'Neil after an opening quote.
const QUOTED_APOSTROPHE = { bash: "'Sam O'\\''Neil'", zsh: "'Sam O'\\''Neil'", fish: "'Sam O\\'Neil'" };

describe.each(['bash', 'zsh', 'fish'] as const)('%s completion at a real terminal', (shell) => {
  const skip = skipWithout(toolsFor(shell), `test/completion/shells-tty.test.ts (${shell})`);
  let session: ShellSession;
  beforeAll(async () => {
    if (!skip) session = await startShellSession(shell);
  }, 20_000);
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed or skipped
  afterAll(() => session?.close());

  it.skipIf(skip)('completes commands', async () => {
    expect(await session.complete('tkt pick', /tkt pickup$/m)).toMatch(/tkt pickup$/m);
  });

  it.skipIf(skip)('completes lookup names with spaces, escaped for the shell', async () => {
    expect(await session.complete('tkt list --site Harb', /--site Harbour\\ Depot$/m)).toContain('Harbour\\ Depot');
  });

  it.skipIf(skip)('completes names without regard to case, as tkt matches them', async () => {
    expect(await session.complete('tkt list --status on', /--status On\\ Hold$/m)).toContain('On\\ Hold');
  });

  // zsh's matchers (compadd -M) pair no letters outside ASCII: it completes jö, not JÖ (README).
  const outsideAscii = shell === 'zsh' ? ['jö'] : ['jö', 'JÖ'];
  it.skipIf(skip)(`completes a name with a letter outside ASCII typed as ${outsideAscii.join(' or ')}`, async () => {
    for (const typed of outsideAscii) {
      expect(await session.complete(`tkt list --requester ${typed}`, /--requester Jörg\\ Müller ?$/m)).toContain('Jörg\\ Müller');
    }
  });

  it.skipIf(skip)('keeps an apostrophe in a name', async () => {
    expect(await session.complete('tkt create --requester sam', /--requester Sam\\ O\\'Neil$/m)).toContain("Sam\\ O\\'Neil");
  });

  it.skipIf(skip)('completes inside quotes to a value tkt accepts: the name as is, the quote closed', async () => {
    expect(await session.complete("tkt list --site 'Harb", /--site 'Harbour Depot' ?$/m)).toContain("'Harbour Depot'");
  });

  it.skipIf(skip)("completes assign's USER after the IDs", async () => {
    expect(await session.complete('tkt assign 42 To', /tkt assign 42 Tom\\ Tech ?$/m)).toContain('Tom\\ Tech');
  });

  it.skipIf(skip)('completes after an alias as after what it stands for (tkt alias)', async () => {
    // zsh writes a long option that takes a value with "=".
    expect(await session.complete('tkt mine --li', /tkt mine --limit[= ]?$/m)).toMatch(/--limit/);
    expect(await session.complete('tkt mine --assignee To', /--assignee Tom\\ Tech ?$/m)).toContain('Tom\\ Tech');
  });

  it.skipIf(skip)('completes files where tkt takes files', async () => {
    expect(await session.complete('tkt attach 12 rep', /tkt attach 12 report\.txt ?$/m)).toContain('report.txt');
  });

  it.skipIf(skip)('completes a file name with spaces and a non-ASCII letter, escaped for the shell', async () => {
    expect(await session.complete('tkt attach 12 my', /tkt attach 12 my\\ file\\ ü\.txt ?$/m)).toContain('my\\ file\\ ü.txt');
    expect(await session.complete('tkt close 1013 --attach my', /--attach my\\ file\\ ü\.txt ?$/m)).toContain('my\\ file\\ ü.txt');
    expect(await session.complete('tkt attach 12 my\\ fi', /tkt attach 12 my\\ file\\ ü\.txt ?$/m)).toContain('my\\ file\\ ü.txt');
  });

  it.skipIf(skip)('completes the PATH of PATH#NAME (README: Naming an upload) as any file', async () => {
    expect(await session.complete('tkt attach 12 /dev/stdi', /tkt attach 12 \/dev\/stdin ?$/m)).toContain('/dev/stdin');
    expect(await session.complete('tkt create --attach /dev/stdi', /--attach \/dev\/stdin ?$/m)).toContain('/dev/stdin');
  });

  it.skipIf(skip)('completes a file name with spaces inside an opening quote, closing it', async () => {
    expect(await session.complete("tkt attach 12 'my", /tkt attach 12 'my file ü\.txt' ?$/m)).toContain("'my file ü.txt'");
    expect(await session.complete('tkt attach 12 "my', /tkt attach 12 "my file ü\.txt" ?$/m)).toContain('"my file ü.txt"');
  });

  it.skipIf(skip)('completes a folder name with spaces, then the files in it', async () => {
    expect(await session.complete('tkt attach 12 our', /tkt attach 12 our\\ dir\\ ü\/$/m)).toContain('our\\ dir\\ ü/');
    expect(await session.complete('tkt attach 12 our\\ dir\\ ü/in', /tkt attach 12 our\\ dir\\ ü\/inner\\ file\.txt ?$/m)).toContain(
      'our\\ dir\\ ü/inner\\ file.txt',
    );
  });

  it.skipIf(skip)('offers no files for an ID', async () => {
    expect(await session.afterTab('tkt show rep')).not.toContain('report.txt');
    // attach takes files, but only after its ticket ID.
    expect(await session.afterTab('tkt attach rep')).not.toContain('report.txt');
  });

  it.skipIf(skip)('completes a command and its options after global options', async () => {
    expect(await session.complete('tkt --profile work pick', /tkt --profile work pickup$/m)).toContain('pickup');
    // zsh writes a long option that takes a value as --site=, whose "=" a space takes away.
    expect(await session.complete('tkt -q list --si', /tkt -q list --site=?$/m)).toContain('--site');
  });

  it.skipIf(skip)('completes view names', async () => {
    expect(await session.complete('tkt list --view unassig', /--view unassigned-tickets$/m)).toContain('unassigned-tickets');
  });

  it.skipIf(skip)('completes config subcommands, then the setting', async () => {
    expect(await session.complete('tkt config ge', /tkt config get ?$/m)).toContain('get');
    expect(await session.complete('tkt config set pag', /tkt config set pager ?$/m)).toContain('pager');
  });

  it.skipIf(skip)('offers no files for a value that is not a file', async () => {
    expect(await session.afterTab('tkt create --title rep')).not.toContain('report.txt');
  });

  it.skipIf(skip)('offers global options after the command', async () => {
    expect(await session.complete('tkt list --jso', /tkt list --json$/m)).toContain('--json');
  });

  it.skipIf(skip)('offers --version before a command only, where tkt takes it', async () => {
    expect(await session.complete('tkt --vers', /tkt --version ?$/m)).toContain('--version');
    expect(await session.afterTab('tkt close 1013 --vers')).not.toContain('--version');
  });

  it.skipIf(skip)("completes an option's value after a ticket ID", async () => {
    const screen = await session.list('tkt update 1013 --priority ', showsAll('Low', 'Medium', 'High', 'Urgent'));

    expect(screen).toMatch(/tkt update 1013 --priority/);
  });

  it.skipIf(skip)("lists a command's options after its ticket IDs", async () => {
    for (const ids of ['1013', '1013 1014']) {
      const screen = await session.list(`tkt close ${ids} --`, showsAll('--by', '--attach', '--concurrency'));

      expect(screen).toContain(`tkt close ${ids} --`);
    }
  });

  it.skipIf(skip)('closes an opening quote around a name with an apostrophe so that the shell keeps it', async () => {
    const quoted = QUOTED_APOSTROPHE[shell];
    expect(await session.complete("tkt create --requester 'Sa", new RegExp(`--requester ${literal(quoted)} ?$`, 'm'))).toContain(quoted);
    expect(await session.complete('tkt create --requester "Sa', /--requester "Sam O'Neil" ?$/m)).toContain(`"Sam O'Neil"`);
  });

  it.skipIf(skip)('offers @me wherever a person is taken', async () => {
    expect(await session.complete('tkt assign 42 43 @', /tkt assign 42 43 @me ?$/m)).toContain('@me');
    expect(await session.complete('tkt create --requester @', /--requester @me ?$/m)).toContain('@me');
  });

  it.skipIf(skip)("offers none for list's --assignee only", async () => {
    expect(await session.complete('tkt list --assignee no', /--assignee none ?$/m)).toContain('none');
    expect(await session.afterTab('tkt update 42 --assignee no')).not.toMatch(/--assignee none/);
  });

  it.skipIf(skip)('completes reply templates, help topics and metadata collections', async () => {
    expect(await session.complete('tkt templates show pri', /tkt templates show printer-fixed ?$/m)).toContain('printer-fixed');
    expect(await session.complete('tkt reply 42 --template wel', /--template welcome ?$/m)).toContain('welcome');
    expect(await session.complete('tkt help exit', /tkt help exit-codes ?$/m)).toContain('exit-codes');
    expect(await session.complete('tkt metadata --collection techn', /--collection technicians ?$/m)).toContain('technicians');
  });

  it.skipIf(skip)('completes the NAME of alias delete and an alias after help with the aliases', async () => {
    expect(await session.complete('tkt alias delete mi', /tkt alias delete mine ?$/m)).toContain('mine');
    expect(await session.complete('tkt help mi', /tkt help mine ?$/m)).toContain('mine');
  });

  it.skipIf(skip)('completes the value of --option=value in one word', async () => {
    expect(await session.complete('tkt list --status=On', /--status=On\\ Hold ?$/m)).toContain('--status=On\\ Hold');
    expect(await session.complete('tkt list --view=unassig', /--view=unassigned-tickets ?$/m)).toContain('unassigned-tickets');
    expect(await session.complete('tkt --profile=work pick', /tkt --profile=work pickup ?$/m)).toContain('pickup');
  });

  it.skipIf(skip)('completes profile names', async () => {
    expect(await session.complete('tkt --profile wo', /tkt --profile work ?$/m)).toContain('work');
    expect(await session.complete('tkt list --profile st', /tkt list --profile staging ?$/m)).toContain('staging');
  });

  if (shell === 'bash') {
    // readline lists on a second Tab only when the first changed nothing.
    it.skipIf(skip)('lists the names a quoted partial name matches on Tab Tab, leaving the line as typed', async () => {
      for (const quote of ["'", '"']) {
        const screen = await session.list(`tkt create --requester ${quote}Ann`, showsAll('Anna Berg', 'Anna Lind'));

        expect(screen).toMatch(new RegExp(`--requester ${quote}Ann$`, 'm'));
      }
    });

    // readline puts in the line the start its candidates share, case and all: "A" for ANNA.
    it.skipIf(skip)('leaves a partial name typed in capitals as typed, and lists the names it matches on Tab Tab', async () => {
      expect(await session.afterTab('tkt list --requester ANNA')).toMatch(/--requester ANNA tab-done-\d+$/m);
      const screen = await session.list('tkt list --requester ANNA', showsAll('Anna\\ Berg', 'Anna\\ Lind'));

      expect(screen).toMatch(/--requester ANNA$/m);
    });
  }
});

// A Turkish locale lower-cases I to dotless ı: "in" must still find In Progress. The locale is
// built here (localedef), as few machines have it; in CI a missing localedef or locale source fails.
const TURKISH_SOURCE = '/usr/share/i18n/locales/tr_TR';

describe.each(['bash', 'zsh', 'fish'] as const)('%s completion in a Turkish locale', (shell) => {
  const skip = skipWithout([...toolsFor(shell), 'localedef', TURKISH_SOURCE], `test/completion/shells-tty.test.ts (${shell}, Turkish)`);
  let folder: string | undefined;
  let session: ShellSession;
  beforeAll(async () => {
    if (skip) return;
    folder = mkdtempSync(path.join(os.tmpdir(), 'tkt-locale-'));
    execFileSync('localedef', ['-i', 'tr_TR', '-f', 'UTF-8', path.join(folder, 'tr_TR.UTF-8')]);
    // The locale is in effect: bash lower-cases I to ı in it.
    const env = { PATH: process.env.PATH, LOCPATH: folder, LANG: 'tr_TR.UTF-8' };
    expect(execFileSync('bash', ['-c', 'x=I; printf %s "${x,,}"'], { env, encoding: 'utf8' })).toBe('ı');
    session = await startShellSession(shell, { name: 'tr_TR.UTF-8', path: folder });
  }, 30_000);
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed or skipped
    await session?.close();
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  it.skipIf(skip)('completes a name with I without regard to case', async () => {
    for (const typed of ['in', 'IN']) {
      expect(await session.complete(`tkt list --status ${typed}`, /--status In\\ Progress ?$/m)).toContain('In\\ Progress');
    }
  });
});
