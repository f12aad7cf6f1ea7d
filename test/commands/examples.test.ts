// Every example tkt prints runs as written against the sandbox: the Examples of every --help
// (read from the program, so a new command's are run without editing this file) and the
// commands that hints name. They run in bash, as a user pastes them, with the built bin as
// `tkt` (npm run build first), logged in to a sandbox as a demo user. The few rewrites and
// exceptions are listed below, each with its reason.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxTicket } from '../../src/sandbox/index.js';
import { createHarness, loginAs, type Harness } from '../helpers/harness.js';
import { commandPaths, helpOf } from '../helpers/program.js';
import { skipWithout } from '../helpers/tools.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'tkt.js');
const skip = skipWithout(['bash', 'curl', 'git', 'script'], 'test/commands/examples.test.ts');

/** Examples not run here, each with why (and where it is tested instead). */
const NOT_RUN: Readonly<Record<string, string>> = {
  'tkt create                       # at a terminal: asks for everything': 'asks at a terminal (test/commands/create.test.ts answers its prompts)',
  'tkt triage': 'a full-screen program for a terminal (test/pty/triage.test.ts)',
  'tkt triage --interval 30': 'a full-screen program for a terminal (test/pty/triage-interval.test.ts)',
  'tkt triage --view unassigned-tickets': 'a full-screen program for a terminal (test/pty/triage.test.ts)',
  'tkt watch --view unassigned-tickets --notify': 'watches until stopped (test/commands/watch.test.ts)',
  'tkt watch --assignee @me --json | jq -c .changes': 'watches until stopped (test/commands/watch.test.ts)',
  'tkt watch 42 43': 'watches until stopped (test/commands/watch.test.ts)',
  'tkt sandbox': 'a server that runs until stopped, on the fixed port 8642 (test/sandbox)',
  'tkt sandbox            # a local emulator of the service, with demo data': 'a server that runs until stopped, on the fixed port 8642 (test/sandbox)',
  'tkt sandbox --port 0 --data ./sandbox.json': 'a server that runs until stopped (test/sandbox)',
};

/** Examples that show a refusal, with the exit code they end with and why. */
const EXPECTED_EXIT: Readonly<Record<string, { code: number; why: string }>> = {
  'tkt delete 42': { code: 2, why: 'asks first at a terminal; without one it needs --yes (the next example)' },
  'tkt assign 42': { code: 2, why: 'asks for the user at a terminal; without one it names what to add (test/commands/assign-reopen.test.ts)' },
};

/**
 * The rewrites, all of them: the example hosts become the sandbox; the example users log in as a
 * demo user (the sandbox has its own), with $PASSWORD set, and TKT_PASSWORD for the password a
 * terminal would ask for; tickets 42, 43 and 44 become sandbox tickets that suit the command (it
 * numbers tickets from 1001).
 */
const HOSTS = /https:\/\/helpdesk\.example\.com|http:\/\/10\.0\.0\.5:8080|http:\/\/127\.0\.0\.1:8642/g;
const USERS = /-u (jdoe|ci-bot|USER)\b/g;
const DEMO_USER = 'admin';
const TICKET_IDS = /\b4[234]\b/g;

/** The ticket an example's command needs: reopen a finished one, pickup an unassigned one... */
function ticketFitFor(verb: string, h: Harness): (ticket: SandboxTicket) => boolean {
  const statusId = (name: string) => h.sandbox.state.lookups.status.find((status) => status.status === name)!.id;
  const finished = [statusId('Resolved'), statusId('Closed')];
  const open = (ticket: SandboxTicket) => !ticket.isDeleted && !ticket.locked && ticket.ticketStatusId === statusId('Open');
  const requester = (ticket: SandboxTicket) => h.sandbox.state.users.find((user) => user.id === ticket.creatorId);
  if (verb === 'reopen') return (ticket) => !ticket.isDeleted && finished.includes(ticket.ticketStatusId);
  if (verb === 'pickup') return (ticket) => open(ticket) && ticket.assignedUser === null;
  // reply --as-requester aberg answers as that requester: on a ticket of theirs.
  if (verb === 'reply') return (ticket) => open(ticket) && requester(ticket)?.username === 'aberg';
  return (ticket) => open(ticket) && requester(ticket)?.email !== undefined;
}

/** Files and folders the examples name, as a user running them would have them. */
function prepareWorkspace(dir: string, home: string): void {
  const files: Record<string, string> = {
    'notes.txt': 'Smoke from tray 2.\n',
    'report.md': '# VPN\nThe tunnel drops every 5 minutes.\n',
    'vpn.log': 'tunnel down\n',
    'answer.txt': 'The new toner is on its way.\n',
    'draft.txt': 'Please have a look.\n',
    'a.pdf': '%PDF-1.4\n',
    'a.log': 'log line\n',
    'error.log': 'E: paper jam\n',
    'screenshot.png': '\u0089PNG\r\n',
    'table.json': '{"page": 1, "length": 5}\n',
    'tickets.csv': 'title,description,requester,site,department,status\nPrinter jam,Tray 2,aberg,Head Office,IT,Open\n',
    'alerts.jsonl': '{"title": "Disk full", "description": "/var at 99%", "requester": "aberg"}\n',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  mkdirSync(join(home, 'Downloads'), { recursive: true });
  writeFileSync(join(home, 'Downloads', 'manual.pdf'), '%PDF-1.4\n');
  // fish makes this folder when it is installed.
  mkdirSync(join(home, '.config', 'fish', 'completions'), { recursive: true });
}

interface ShellResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `command` run by bash in `cwd`, stdin empty; asynchronous, so the sandbox in this process answers. */
function runShell(command: string, cwd: string, env: Record<string, string>): Promise<ShellResult> {
  // Editing a template opens the editor, which needs a terminal (a piped run is refused): the
  // command gets one from script(1), as at a person's prompt.
  const argv = /\btkt templates edit\b/.test(command) ? ['-c', `script -qec ${quoted(command)} /dev/null`] : ['-c', command];
  return new Promise((resolve) => {
    const child = execFile('bash', argv, { cwd, env, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end();
  });
}

/** `text` as one word for bash. */
const quoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** The examples of a help text: each `$ ` line, with the lines it continues onto (`\` or `|` at the end). */
function examplesIn(help: string): string[] {
  const lines = help.split('\n');
  const examples: string[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const start = /^\s+\$ (.*)$/.exec(lines[index]!);
    if (start === null) continue;
    let example = start[1]!;
    while (/[\\|]$/.test(example) && index + 1 < lines.length) {
      index += 1;
      example += `\n${lines[index]!}`;
    }
    examples.push(example);
  }
  return examples;
}

/** Each help's examples, in order, each example once (under the first help that shows it). */
function examplesByHelp(): [string, string[]][] {
  const seen = new Set<string>();
  return [[], ...commandPaths()].map((path) => {
    const fresh = examplesIn(helpOf(path)).filter((example) => !seen.has(example));
    for (const example of fresh) seen.add(example);
    return [['tkt', ...path].join(' '), fresh];
  });
}

/** A sandbox, a logged-in config folder and a workspace for one help's examples. */
interface World {
  h: Harness;
  cwd: string;
  env: Record<string, string>;
  /** Example ID -> sandbox ticket, chosen on first use. */
  tickets: Map<string, number>;
  used: Set<number>;
}

const worlds: World[] = [];
let shims = '';

async function createWorld(): Promise<World> {
  const h = await createHarness({ login: DEMO_USER });
  // The profiles the examples name exist, as after `tkt login --profile staging`.
  await loginAs(h.sandbox, h.configDir, DEMO_USER, 'staging');
  await loginAs(h.sandbox, h.configDir, DEMO_USER, 'work');
  const cwd = mkdtempSync(join(tmpdir(), 'tkt-examples-'));
  const home = join(cwd, 'home');
  mkdirSync(home);
  prepareWorkspace(cwd, home);
  const env: Record<string, string> = {
    PATH: `${shims}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    TKT_CONFIG_DIR: h.configDir,
    PASSWORD: DEMO_USER,
    TKT_PASSWORD: DEMO_USER,
    NO_COLOR: '1',
    // tkt browse starts this instead of a real browser.
    BROWSER: 'true',
    // tkt templates edit saves the example with a line added (an unchanged example is not kept).
    EDITOR: "printf 'Edited.\\n' >>",
    LANG: 'C.UTF-8',
    GIT_AUTHOR_NAME: 'Tom Tech',
    GIT_AUTHOR_EMAIL: 'tech@example.com',
    GIT_COMMITTER_NAME: 'Tom Tech',
    GIT_COMMITTER_EMAIL: 'tech@example.com',
  };
  // `git log -1 --format=%B | tkt reply ...` is run in a repository with a commit.
  const git = await runShell('git init -q && git commit -q --allow-empty -m "Fix the toner counter"', cwd, env);
  expect(git.code, git.stderr).toBe(0);
  const world = { h, cwd, env, tickets: new Map<string, number>(), used: new Set<number>() };
  worlds.push(world);
  return world;
}

/** The example as it runs here: sandbox URL, demo user, sandbox tickets that suit its command. */
function rewrite(example: string, world: World): string {
  return example
    .replace(HOSTS, world.h.sandbox.url)
    .replace(USERS, `-u ${DEMO_USER}`)
    .replace(TICKET_IDS, (id, offset: number) => {
      const known = world.tickets.get(id);
      if (known !== undefined) return String(known);
      const verb = /tkt (\w+)[^|]*$/.exec(example.slice(0, offset))?.[1] ?? '';
      const ticket = world.h.sandbox.state.tickets.find((candidate) => !world.used.has(candidate.id) && ticketFitFor(verb, world.h)(candidate));
      if (ticket === undefined) throw new Error(`no sandbox ticket fits "${example}"`);
      world.used.add(ticket.id);
      world.tickets.set(id, ticket.id);
      return String(ticket.id);
    });
}

beforeAll(() => {
  if (skip) return;
  shims = mkdtempSync(join(tmpdir(), 'tkt-examples-bin-'));
  const shim = (name: string, script: string) => {
    writeFileSync(join(shims, name), `#!/bin/sh\n${script}\n`);
    chmodSync(join(shims, name), 0o755);
  };
  shim('tkt', `exec "${process.execPath}" "${bin}" "$@"`);
  // The GitHub CLI is not tkt's to test: a stand-in that takes the secret on stdin, as gh does.
  shim('gh', 'cat > /dev/null');
});

afterAll(async () => {
  for (const world of worlds) {
    await world.h.close();
    rmSync(world.cwd, { recursive: true, force: true });
  }
  if (shims !== '') rmSync(shims, { recursive: true, force: true });
});

describe.skipIf(skip)('help examples', () => {
  const byHelp = examplesByHelp();

  it('come from every command the program has', () => {
    const helps = byHelp.map(([name]) => name);
    expect(helps).toEqual(expect.arrayContaining(['tkt', 'tkt list', 'tkt close', 'tkt config', 'tkt auth token']));
    expect(byHelp.flatMap(([, examples]) => examples).length).toBeGreaterThan(60);
    // An exception must name an example that exists: a stale one would excuse nothing.
    const all = byHelp.flatMap(([, examples]) => examples);
    for (const example of [...Object.keys(NOT_RUN), ...Object.keys(EXPECTED_EXIT)]) expect(all).toContain(example);
  });

  it('pipe every page of a list into a command, with --all (a page holds 10 tickets; a cron job would handle 10 a run)', () => {
    const docs = ['README.md', 'docs/cli.md', 'src/commands/README.md'].map((file) => readFileSync(join(root, file), 'utf8'));
    const piped = [...byHelp.flatMap(([, examples]) => examples), ...docs.flatMap((text) => text.match(/\btkt list\b[^|\n`]*\|\s*tkt [^\n`]*/g) ?? [])].filter(
      (text) => /\btkt list\b[^|]*\|\s*tkt /.test(text),
    );
    expect(piped.length).toBeGreaterThan(10);
    expect(piped.filter((example) => !/\btkt list\b[^|]*--all\b[^|]*\|/.test(example))).toEqual([]);
  });

  it.each(byHelp.filter(([, examples]) => examples.some((example) => NOT_RUN[example] === undefined)))(
    '%s: every example runs against the sandbox',
    async (_help, examples) => {
      const world = await createWorld();
      for (const example of examples.filter((candidate) => NOT_RUN[candidate] === undefined)) {
        const command = rewrite(example, world);
        const result = await runShell(command, world.cwd, world.env);
        const expected = EXPECTED_EXIT[example]?.code ?? 0;
        expect({ example: command, code: result.code, stderr: result.stderr }).toEqual({ example: command, code: expected, stderr: expect.any(String) });
      }
    },
  );
});

/**
 * A hint that names commands: how it is brought about (`trigger`, a shell line run like the
 * examples), or, where that needs a service or a terminal this test does not have, its text as
 * tkt writes it (`cited`, with why); then the commands it names, which must be in its text.
 */
interface HintCase {
  name: string;
  setup?: string;
  trigger?: string;
  cited?: { text: string; why: string };
  commands: string[];
}

const HINTS: readonly HintCase[] = [
  {
    name: 'after a logout in profile p2 (--profile)',
    setup: 'tkt login --profile p2 --url $URL -u admin && tkt logout --profile p2',
    trigger: 'tkt list --profile p2',
    commands: ['tkt login --profile p2'],
  },
  {
    name: 'after a logout in profile p2 (TKT_PROFILE)',
    setup: 'tkt login --profile p2 --url $URL -u admin && tkt logout --profile p2',
    trigger: 'TKT_PROFILE=p2 tkt list',
    commands: ['tkt login --profile p2'],
  },
  {
    name: 'with --url',
    setup: 'tkt login --profile p2 --url $URL -u admin && tkt logout --profile p2',
    trigger: 'tkt list --profile p2 --url $URL',
    commands: ['tkt login --profile p2 --url $URL'],
  },
  { name: 'an unknown profile', trigger: 'tkt whoami --profile nosuch', commands: ['tkt login --profile nosuch --url URL'] },
  { name: 'a profile without a URL (nothing saved yet)', trigger: 'TKT_CONFIG_DIR=$PWD/fresh tkt list', commands: ['tkt login --url URL'] },
  { name: 'no web-url setting', trigger: 'tkt browse 42', commands: ["tkt config set web-url 'https://helpdesk.example.com/Ticket/Details/{id}'"] },
  { name: 'a template that does not exist', trigger: 'tkt templates show printer-fixed', commands: ['tkt templates edit printer-fixed'] },
  {
    name: 'no templates yet',
    cited: {
      text: 'no templates yet: create one with "tkt templates edit NAME" (they are kept in ~/.config/tkt/templates)',
      why: 'tkt templates list before any template (test/commands/templates.test.ts)',
    },
    commands: ['tkt templates edit NAME'],
  },

  {
    name: 'an empty template',
    setup: 'mkdir -p "$TKT_CONFIG_DIR/templates" && : > "$TKT_CONFIG_DIR/templates/blank.md"',
    trigger: 'tkt reply 42 --template blank',
    commands: ['tkt templates edit blank'],
  },
  {
    name: '{{me.name}} in a template under TKT_TOKEN',
    setup: 'mkdir -p "$TKT_CONFIG_DIR/templates" && printf "Thanks, {{me.name}}\\n" > "$TKT_CONFIG_DIR/templates/signed.md"',
    trigger: 'TKT_TOKEN=$(tkt auth token) tkt reply 42 --template signed',
    commands: ['tkt login'],
  },
  { name: 'an empty TKT_TOKEN', setup: 'tkt logout', trigger: 'TKT_TOKEN= tkt list', commands: ['tkt login'] },
  { name: 'no token in CI', setup: 'tkt logout', trigger: 'CI=true tkt list', commands: ['tkt login'] },
  { name: 'an empty TKT_TOKEN in CI', setup: 'tkt logout', trigger: 'CI=true TKT_TOKEN= tkt list', commands: ['tkt login'] },
  { name: 'an expired TKT_TOKEN', trigger: 'TKT_TOKEN=$EXPIRED_TOKEN TKT_URL=$URL tkt list', commands: ['tkt login'] },
  { name: 'a token the service refuses', trigger: 'tkt whoami -q >/dev/null && TKT_CONFIG_DIR=$REFUSED_CONFIG tkt show 42', commands: ['tkt login'] },
  { name: 'the token of another URL', trigger: 'tkt list --url $OTHER_URL', commands: ['tkt login --url $OTHER_URL'] },
  { name: 'credentials in the URL', trigger: 'tkt list --url http://u:p@127.0.0.1:1', commands: ['tkt login'] },
  { name: 'login without a terminal', trigger: 'TKT_PASSWORD= tkt login', commands: ['printf %s "$PASSWORD" | tkt login -u USER --password-stdin --url $URL'] },
  {
    name: 'login without a terminal in profile staging',
    trigger: 'TKT_PASSWORD=x tkt login --profile staging',
    commands: ['printf %s "$PASSWORD" | tkt login -u USER --password-stdin --profile staging --url $URL'],
  },
  { name: '--raw without --query', trigger: 'tkt list --raw', commands: ['tkt help formatting'] },
  { name: 'a malformed --query', trigger: "tkt show 42 --query '[?x=='", commands: ['tkt help formatting'] },
  { name: 'an unknown help topic', trigger: 'tkt help exit-code', commands: ['tkt help exit-codes', 'tkt --help'] },
  { name: 'a ticket ID for a command', trigger: 'tkt 1015', commands: ['tkt show 1015'] },
  { name: "a command's option before it", trigger: 'tkt --view my-open-tickets list', commands: ['tkt list --view my-open-tickets'] },
  { name: 'a word after list', trigger: 'tkt list printer', commands: ['tkt list --search printer'] },
  { name: 'a user name unquoted', trigger: 'tkt assign 1015 Tom Tech', commands: ['tkt assign 1015 "Tom Tech"'] },
  {
    name: 'an alias expansion unquoted',
    trigger: 'tkt alias set mine list --view my-open-tickets',
    commands: ["tkt alias set mine 'list --view my-open-tickets'"],
  },
  {
    name: 'an alias of a misspelt command',
    trigger: "tkt alias set mine 'lsit --view my-open-tickets'",
    commands: ["tkt alias set mine 'list --view my-open-tickets'"],
  },
  { name: 'an unknown lookup name', trigger: 'tkt list --site nowhere', commands: ['tkt metadata --collection sites'] },
  {
    name: 'an unknown lookup name in profile staging',
    trigger: 'tkt list --site nowhere --profile staging',
    commands: ['tkt metadata --collection sites --profile staging'],
  },
  {
    name: 'an alias that exists',
    setup: "tkt alias set mine 'list --view my-open-tickets'",
    trigger: "tkt alias set mine 'list --limit 5'",
    commands: ["tkt alias set mine 'list --limit 5' --clobber"],
  },
  { name: 'an alias of no command', trigger: "tkt alias set bad 'nosuch 1'", commands: ["tkt alias set bad '!nosuch 1'"] },
  {
    name: 'an alias of an alias',
    setup: "tkt alias set mine 'list --view my-open-tickets'",
    trigger: "tkt alias set m2 'mine --limit 5'",
    commands: ["tkt alias set m2 'list --view my-open-tickets --limit 5'"],
  },
  {
    name: 'an alias of a shell alias',
    setup: "tkt alias set urgent '!tkt list -q'",
    trigger: 'tkt alias set u2 urgent',
    commands: [`tkt alias set u2 '!tkt urgent "$@"'`],
  },
  {
    name: "another command's option before an alias's name",
    trigger: 'tkt alias set --limit 5 mine list',
    commands: ["tkt alias set mine 'list --limit 5'"],
  },
  { name: 'an alias starting with an option', trigger: "tkt alias set j '--json list --limit 1'", commands: ["tkt alias set j 'list --limit 1 --json'"] },
  {
    name: 'an alias after global options',
    setup: "tkt alias set mine 'list --view my-open-tickets'",
    trigger: 'tkt --json mine',
    commands: ['tkt mine --json'],
  },
  // The hint repeats the IDs given: 1015 is a sandbox ticket as it is (42 would be rewritten into one).
  { name: 'assign without a user', trigger: 'tkt assign 1015', commands: ['tkt assign 1015 @me'] },
  { name: 'assign - without a user', trigger: 'tkt list -q --limit 1 | tkt assign -', commands: ['tkt assign - @me'] },
  { name: 'triage without a terminal', trigger: 'tkt triage', commands: ['tkt list --view my-open-or-unassigned'] },
  {
    name: 'an alias that expands to itself (hand-edited)',
    setup: `node -e 'const fs = require("fs"), f = process.env.TKT_CONFIG_DIR + "/config.json", c = JSON.parse(fs.readFileSync(f, "utf8")); c.settings = { ...c.settings, aliases: { loop: "loop -q" } }; fs.writeFileSync(f, JSON.stringify(c))'`,
    trigger: 'tkt loop',
    commands: ['tkt alias delete loop'],
  },
  {
    name: 'an alias that starts with one that cannot run (hand-edited)',
    setup: `node -e 'const fs = require("fs"), f = process.env.TKT_CONFIG_DIR + "/config.json", c = JSON.parse(fs.readFileSync(f, "utf8")); c.settings = { ...c.settings, aliases: { x: "empty -q", empty: "" } }; fs.writeFileSync(f, JSON.stringify(c))'`,
    trigger: 'tkt x',
    commands: ['tkt --help', 'tkt alias delete x'],
  },
  {
    name: 'an alias expansion unquoted, the alias saved',
    setup: "tkt alias set mine 'list --view my-open-tickets'",
    trigger: 'tkt alias set mine list --limit 5',
    commands: ["tkt alias set mine 'list --limit 5' --clobber"],
  },
  {
    // Its script runs no alias again: the case ends even if the guard fails.
    name: 'a shell alias nested too deep',
    setup: "tkt alias set nested '!tkt list -q --limit 1'",
    trigger: 'TKT_ALIAS_DEPTH=10 tkt nested',
    commands: ['tkt help nested'],
  },
  {
    name: 'a saved setting a command refuses (hand-edited)',
    setup: `node -e 'const fs = require("fs"), f = process.env.TKT_CONFIG_DIR + "/config.json", c = JSON.parse(fs.readFileSync(f, "utf8")); c.settings = { ...c.settings, defaultView: "all-my-group" }; fs.writeFileSync(f, JSON.stringify(c))'`,
    trigger: 'tkt list',
    commands: ['tkt config unset default-view'],
  },
  {
    name: 'an alias whose expansion is no text (hand-edited)',
    setup: `node -e 'const fs = require("fs"), f = process.env.TKT_CONFIG_DIR + "/config.json", c = JSON.parse(fs.readFileSync(f, "utf8")); c.settings = { ...c.settings, aliases: { team: 5 } }; fs.writeFileSync(f, JSON.stringify(c))'`,
    trigger: 'tkt team',
    commands: ['tkt alias delete team'],
  },
  {
    name: 'triage at a TERM=dumb terminal',
    cited: {
      text: 'run it in a terminal emulator (in Emacs: M-x term or vterm), or use tkt list --view my-open-or-unassigned and the ID commands',
      why: 'refused only at a terminal (test/pty/dumb-terminal.test.ts)',
    },
    commands: ['tkt list --view my-open-or-unassigned'],
  },
  {
    name: 'a token asked for at a terminal',
    cited: { text: 'pipe it (tkt auth token | gh secret set TKT_TOKEN), or add --show', why: 'refused only at a terminal (test/commands/settings.test.ts)' },
    commands: ['tkt auth token | gh secret set TKT_TOKEN'],
  },
  {
    name: 'create --from interrupted',
    setup: 'tkt create --from tickets.csv -q',
    cited: {
      text: 'to finish: tkt create --from tickets.csv --resume tickets.csv.report.jsonl --profile staging',
      why: 'needs a run stopped by a signal (test/bulk/create-from.test.ts)',
    },
    commands: ['tkt create --from tickets.csv --resume tickets.csv.report.jsonl --profile staging'],
  },
  {
    name: 'a listed ticket without an ID tkt knows',
    cited: {
      text: 'tkt reads a ticket\'s ID from ticketId, id, ticketNumber (any case); "tkt list --json" shows the list as the service sent it',
      why: 'needs a service whose list items name their ID otherwise (test/commands/list.test.ts)',
    },
    commands: ['tkt list --json'],
  },
  {
    name: 'a created ticket without an ID',
    cited: { text: 'check with "tkt list --view all-my-tickets"', why: 'needs a service that names no new ID (test/commands/hostile-service.test.ts)' },
    commands: ['tkt list --view all-my-tickets'],
  },
  {
    name: 'a created ticket whose read for --json failed',
    cited: {
      text: 'do not create it again: "tkt show 42 --json" shows it',
      why: 'needs a service that answers a create with its address only, then fails the read (test/commands/create.test.ts)',
    },
    commands: ['tkt show 42 --json'],
  },
  {
    name: 'a due date the SLA overrides',
    cited: {
      text: 'try "tkt update 42 --due 2026-12-01T14:00:00.000Z" alone; if the SLA still wins, the due date is the service\'s to set',
      why: 'needs a service that ignores the due date (test/commands/update.test.ts)',
    },
    commands: ['tkt update 42 --due 2026-12-01T14:00:00.000Z'],
  },
  {
    name: 'a file the service did not keep',
    cited: {
      text: 'the service keeps only the file types it allows; "tkt show 42" lists the ticket\'s attachments',
      why: 'needs an upload the service skips (test/commands/skipped-attachments.test.ts)',
    },
    commands: ['tkt show 42'],
  },
  {
    name: 'a reply, forward or attach in doubt',
    cited: {
      text: 'look at it with "tkt show 42" before running this again',
      why: 'needs a service that takes the request and never answers (test/commands/reply.test.ts)',
    },
    commands: ['tkt show 42'],
  },
  {
    name: 'a create in doubt',
    cited: {
      text: 'look for it with "tkt list --search \'printer jam\'" before running this again; --dedup-key makes a run safe to repeat',
      why: 'needs a service that takes the request and never answers (test/commands/create.test.ts)',
    },
    commands: ["tkt list --search 'printer jam'"],
  },
];

/** Hints that name tkt but no command line to run, and why. */
const HINTS_WITHOUT_COMMAND_LINE: Readonly<Record<string, string>> = {
  'pass the report a previous "tkt create --from" wrote': "names the command that writes reports; the file is the user's",
  'tkt makes that file while it writes, and removes it: move ':
    'says what the lock file is, no command (a lock path that is not a file: test/config/store.test.ts)',
  'several tkt were writing it at once: try again, or remove ': 'says what to do about a lock held too long, no command (test/config/store.test.ts)',
  'to resolve or close tickets, use tkt resolve or tkt close':
    "names the commands that settle tickets, whose IDs and texts are the user's (reopen --status closed: test/commands/assign-reopen.test.ts)",
  '" for each: an update that leaves the priority keeps the due date; --json has both dates of each row':
    "names tkt update ID --due WHEN, whose ID and WHEN are each row's (rows whose due date the SLA replaced: test/bulk/create-from.test.ts)",
  'no aliases yet: create one with "tkt alias set NAME \'COMMAND ...\'"':
    "names tkt alias set with the user's NAME and COMMAND to fill in (tkt alias list before any alias: test/commands/alias.test.ts)",
  "quote the expansion: tkt alias set NAME 'COMMAND ... ":
    "names tkt alias set with the user's NAME, COMMAND and option's value to fill in (an option of no command before the name: test/commands/alias.test.ts)",
  'give it one with --requester USER (a user ID, username or full name): tkt update ':
    "names tkt update ID --requester USER, whose USER is the user's to choose (a ticket that shows no requester: test/commands/update.test.ts)",
  'find each row\'s ticket by its title ("':
    "names tkt list --search TITLE, whose TITLE is each row's (a --created ticket that is not the row's: test/bulk/create-from.test.ts)",
};

/** The literal text of every hint in src/ that mentions tkt or builds a tkt command line (the parts between its ${...}). */
function hintTextsInSource(): { file: string; parts: string[] }[] {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
    );
  return files(join(root, 'src'))
    .filter((file) => !file.includes(`${join('src', 'sandbox')}`))
    .flatMap((file) => {
      const source = readFileSync(file, 'utf8');
      return [...source.matchAll(/(?:hint: |note\(|hint = )(?=['"`])/g)]
        .map((match) => stringLiteralAt(source, match.index + match[0].length))
        .filter(({ parts, code }) => parts.some((part) => part.includes('tkt ')) || /\b(tktCommand|loginCommand)\(/.test(code))
        .map(({ parts }) => ({ file: relative(root, file), parts }));
    });
}

/** The string literal that starts at `start`: its text parts, and the code of its ${...}, nested templates included. */
function stringLiteralAt(source: string, start: number): { parts: string[]; code: string; end: number } {
  const quote = source[start]!;
  const parts: string[] = [];
  let text = '';
  let code = '';
  let at = start + 1;
  while (at < source.length && source[at] !== quote) {
    if (source[at] === '\\') {
      // A line's end (\n) ends the hint's text: what is seen is a line.
      text += source[at + 1] === 'n' ? '' : source[at + 1];
      at += 2;
    } else if (quote === '`' && source.startsWith('${', at)) {
      // Up to the matching brace, stepping over nested template literals.
      let depth = 1;
      at += 2;
      while (depth > 0) {
        const char = source[at]!;
        if (char === '`') {
          const nested = stringLiteralAt(source, at);
          code += `\`${nested.parts.join('${}')}\`${nested.code}`;
          at = nested.end;
          continue;
        }
        if (char === '{') depth += 1;
        if (char === '}') depth -= 1;
        if (depth > 0) code += char;
        at += 1;
      }
      parts.push(text);
      text = '';
    } else {
      text += source[at];
      at += 1;
    }
  }
  return { parts: [...parts, text], code, end: at + 1 };
}

describe.skipIf(skip)('hint commands', () => {
  /** What each case's hint said, by case name. */
  const observed = new Map<string, string>();

  it.each(HINTS.map((hint) => [hint.name, hint] as const))('%s: the commands the hint names run', async (_name, hint) => {
    const world = await createWorld();
    const other = world.h.sandbox.url.replace('127.0.0.1', 'localhost');
    const refused = join(world.cwd, 'refused-config');
    await loginAs(world.h.sandbox, refused, DEMO_USER);
    writeFileSync(
      join(refused, 'tokens', 'default.json'),
      JSON.stringify({ ...JSON.parse(readFileSync(join(refused, 'tokens', 'default.json'), 'utf8')), token: 'refused' }),
    );
    const env = {
      ...world.env,
      URL: world.h.sandbox.url,
      OTHER_URL: other,
      REFUSED_CONFIG: refused,
      EXPIRED_TOKEN: world.h.sandbox.issueToken(DEMO_USER, { expiresInSeconds: -60 }),
    };
    if (hint.setup !== undefined) {
      const setup = await runShell(hint.setup, world.cwd, env);
      expect(setup.code, setup.stderr).toBe(0);
    }
    let text = hint.cited?.text;
    if (hint.trigger !== undefined) {
      const triggered = await runShell(rewrite(hint.trigger, world), world.cwd, env);
      text = /^(?:hint|note): (.*)$/m.exec(triggered.stderr)?.[1];
      expect(text, triggered.stderr).toBeDefined();
    }
    observed.set(hint.name, text!);
    for (const command of hint.commands) {
      const expanded = command.replaceAll('$URL', world.h.sandbox.url).replaceAll('$OTHER_URL', other);
      expect(text).toContain(expanded);
      // A login is given what a terminal would ask for: the user name, the URL when none is
      // known (TKT_URL) or the hint leaves it to the user (--url URL), the password (TKT_PASSWORD).
      const runnable = rewrite(expanded, world)
        .replace(/ --url URL\b/, ` --url ${world.h.sandbox.url}`)
        .replace(/^tkt login(?!.* -u )(.*)$/, `TKT_URL=${world.h.sandbox.url} tkt login$1 -u ${DEMO_USER}`);
      const result = await runShell(runnable, world.cwd, env);
      expect({ command: runnable, code: result.code, stderr: result.stderr }).toEqual({ command: runnable, code: 0, stderr: expect.any(String) });
    }
  });

  // Runs after the cases above, from the hints they saw: run the whole file.
  it('cover every hint in the source that mentions tkt', () => {
    expect([...observed.keys()], 'every hint case ran first').toEqual(HINTS.map((hint) => hint.name));
    const texts = [...observed.values(), ...Object.keys(HINTS_WITHOUT_COMMAND_LINE)].join('\n');
    const found = hintTextsInSource();
    expect(found.length).toBeGreaterThan(8);
    for (const { file, parts } of found) {
      const longest = parts.reduce((a, b) => (b.length > a.length ? b : a));
      expect(texts, `${file}: ${parts.join('…')}`).toContain(longest);
    }
  });
});
