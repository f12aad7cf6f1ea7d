// The whole CLI in-process (commander, error mapping, exit codes) against a real
// sandbox: the global behaviour every command shares (docs/cli.md sections 2 and 5).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunState } from '../../src/process-host.js';
import { buildProgram } from '../../src/commander-program.js';
import { loadCommands } from '../../src/commands/index.js';
import { startServer, type TestServer } from '../api/server.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { fakeProcess } from './fake-process.js';

// Every command's module, loaded once: each test's program registers all of them.
const allCommands = await loadCommands();

const STACK_FRAME = /^\s+at /m;
const LIST_ROUTE = 'POST /api/TicketsApi';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const listCalls = () => h.sandbox.stats.byRoute[LIST_ROUTE] ?? 0;

describe('errors', () => {
  it('prints one error line and no stack trace without --debug', async () => {
    const result = await h.cli(['show', '999999']);

    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^error: .*999999/m);
    expect(result.stderr.match(/^error:/gm)).toHaveLength(1);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('adds the stack trace with --debug', async () => {
    const result = await h.cli(['show', '999999', '--debug']);

    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^error: /m);
    expect(result.stderr).toMatch(STACK_FRAME);
  });

  it('takes --debug from the parsed options, not from any argument that spells it', async () => {
    // After "--", "--debug" is the ticket ID argument (a bad one), not the flag: no stack trace.
    const result = await h.cli(['show', '--', '--debug']);

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: /m);
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('shows an unexpected (non-tkt) error as one line with a --debug hint, and its stack only with --debug', async () => {
    // A data file under a path that is a file, not a folder: Node's own ENOTDIR error, not one of ours.
    const underAFile = join(h.configDir, 'config.json', 'state.json');
    const plain = await h.cli(['sandbox', '--port', '0', '--data', underAFile]);

    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/^error: .*ENOTDIR/m);
    expect(plain.stderr).toContain('hint: run again with --debug for details');
    expect(plain.stderr).not.toMatch(STACK_FRAME);

    const debug = await h.cli(['sandbox', '--port', '0', '--data', underAFile, '--debug']);

    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(STACK_FRAME);
    expect(debug.stderr).not.toContain('hint: run again with --debug');
  });

  it('maps a token the server rejects (401) to exit 4, the hint naming TKT_TOKEN when it came from there', async () => {
    const result = await h.cli(['list', '--url', h.sandbox.url], { env: { TKT_TOKEN: 'garbage' } });

    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^error: .*401/m);
    expect(result.stderr).toContain('hint: the token in TKT_TOKEN was refused');
    expect(result.stdout).toBe('');
  });
});

describe('a token refused that TKT_TOKEN gives with its scheme', () => {
  // Copied from an Authorization header: sent as "Bearer Bearer ...".
  it('says to set TKT_TOKEN to the token alone', async () => {
    const result = await h.cli(['list', '--url', h.sandbox.url], { env: { TKT_TOKEN: `Bearer ${h.sandbox.issueToken('tech')}` } });

    expect(result.code).toBe(4);
    expect(result.stderr).toContain('hint: TKT_TOKEN begins with "Bearer ": set it to the token alone (tkt adds the scheme)\n');
  });
});

describe('--timeout', () => {
  let silent: TestServer;
  beforeAll(async () => {
    // Accepts the request and never answers.
    silent = await startServer(() => undefined);
  });
  afterAll(() => silent.close());

  const listWithTimeout = (seconds: string) => h.cli(['list', '--url', silent.url, '--timeout', seconds], { env: { TKT_TOKEN: 'any-token' } });

  it('refuses 0, non-numbers and numbers not in plain decimal with exit 2 before any request', async () => {
    const before = silent.requests.length;
    // JavaScript's Number() takes 0x10 as 16 and 1e3 as 1000: a person writing them meant something else.
    // An empty or blank one is "--timeout is empty", as for every option (test/commands/empty-values.test.ts).
    for (const value of ['0', 'abc', '0x10', '1e3', '-1']) {
      const result = await listWithTimeout(value);

      expect(result.code, value).toBe(2);
      expect(result.stderr).toContain(`invalid --timeout "${value}": expected a number of seconds greater than 0, in plain decimal (30, 1.5)`);
    }
    expect(silent.requests).toHaveLength(before);
  });

  it('ends a request the server never answers with exit 1 and a message naming the URL', async () => {
    const before = silent.requests.length;
    const result = await listWithTimeout('0.5');

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`request timed out after 0.5s: POST ${silent.url}/api/TicketsApi`);
    expect(result.stderr).not.toMatch(STACK_FRAME);
    // A time-out is not retried: the server may still be working on the first try.
    expect(silent.requests).toHaveLength(before + 1);
  });
});

describe('commands and global options', () => {
  it('refuses plain http to another host with TKT_TOKEN, and --allow-http lets that run through', async () => {
    const env = { TKT_TOKEN: h.sandbox.issueToken('admin'), TKT_URL: 'http://tkt-test.invalid' };
    const refused = await h.cli(['show', '1'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/unencrypted/);
    // No login, so no profile keeps --allow-http: the hint says where it goes (README, Credentials).
    expect(refused.stderr.split('\n').slice(1)).toEqual([
      'hint: use https, or pass --allow-http on the command (with TKT_TOKEN, on every run: no login saves it)',
      '',
    ]);

    // Allowed, it goes on to the network: the host does not resolve (exit 1), not the refusal.
    const allowed = await h.cli(['show', '1', '--allow-http', '--timeout', '5'], { env });
    expect(allowed.code).toBe(1);
    expect(allowed.stderr).toMatch(/could not resolve host tkt-test\.invalid/);
  });

  const program = buildProgram(fakeProcess(), createRunState(), allCommands);
  // Hidden helpers (the completion scripts' __complete) are not for people and need no examples.
  const commands = program
    .createHelp()
    .visibleCommands(program)
    .map((c) => c.name())
    .filter((name) => name !== 'help');

  it('registers the commands of docs/cli.md', () => {
    expect(commands).toEqual(expect.arrayContaining(['login', 'logout', 'whoami', 'list', 'show', 'create', 'close', 'api', 'sandbox']));
  });

  it('shows examples in tkt --help', async () => {
    const result = await h.cli(['--help']);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Examples:');
    expect(result.stdout).toContain('--timeout <seconds>');
  });

  it.each(commands)('shows examples in tkt %s --help, without a request', async (name) => {
    const before = h.sandbox.stats.requests;
    const result = await h.cli([name, '--help']);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Usage: tkt ${name}`);
    expect(result.stdout).toContain('Examples:');
    expect(h.sandbox.stats.requests).toBe(before);
  });

  it('accepts a global option after the command as well as before it', async () => {
    const after = await h.cli(['list', '--json']);
    const before = await h.cli(['--json', 'list']);

    expect(after.code).toBe(0);
    expect(before.code).toBe(0);
    const afterJson = JSON.parse(after.stdout) as unknown;
    expect(JSON.parse(before.stdout)).toEqual(afterJson);
    expect(afterJson).toBeTypeOf('object');
  });

  it('applies a global value option given after the command (--timeout)', async () => {
    const calls = listCalls();
    const result = await h.cli(['list', '--timeout', 'abc']);

    expect(result.code).toBe(2);
    expect(listCalls()).toBe(calls);
  });

  it('colours messages only when allowed: FORCE_COLOR=1 paints, --no-color after the command does not', async () => {
    const ansi = /\u001b\[/;
    // Two unknown IDs: each failure gets its own (red) line on stderr.
    const ids = ['999998', '999999'];
    const forced = await h.cli(['read', ...ids], { env: { FORCE_COLOR: '1' } });
    const plain = await h.cli(['read', ...ids, '--no-color'], { env: { FORCE_COLOR: '1' } });

    expect(forced.code).toBe(1);
    expect(forced.stderr).toContain('#999998');
    expect(forced.stderr).toMatch(ansi);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('#999998');
    expect(plain.stderr).not.toMatch(ansi);
  });

  it('draws no progress bar into a piped stderr, even with FORCE_COLOR (CI logs): it forces colour only', async () => {
    const ids = ['1001', '1002', '1003'];
    const forced = await h.cli(['read', ...ids], { env: { FORCE_COLOR: '1' } });

    expect(forced.code).toBe(0);
    // A bar is redrawn with a carriage return and an erase-line; a log would keep every frame.
    expect(forced.stderr).not.toContain('\r');
    expect(forced.stderr).not.toMatch(/[█░]/);
  });

  it('prints the version with --version and exits 0', async () => {
    for (const flag of ['--version', '-V']) {
      const result = await h.cli([flag]);

      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`${TKT_VERSION}\n`);
    }
  });

  it('exits 2 on an unknown command, before any request', async () => {
    const before = h.sandbox.stats.requests;
    const result = await h.cli(['frobnicate']);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
    expect(h.sandbox.stats.requests).toBe(before);
  });

  it("suggests the command meant for a misspelt one, among every command's names and aliases", async () => {
    const misspelt = await h.cli(['shwo', '1']);
    const aliasMisspelt = await h.cli(['--json', 'veiw', '1']);

    expect(misspelt.code).toBe(2);
    expect(misspelt.stderr).toContain("unknown command 'shwo'\n(Did you mean show?)");
    expect(aliasMisspelt.code).toBe(2);
    expect(aliasMisspelt.stderr).toContain("unknown command 'veiw'\n(Did you mean view?)");
  });

  it('suggests -V for -v (a short option in the wrong case), as commander suggests a long option for a misspelt one; -v stays an error', async () => {
    const version = await h.cli(['-v']);
    expect(version.code).toBe(2);
    expect(version.stdout).toBe('');
    expect(version.stderr).toBe("error: unknown option '-v'\n(Did you mean -V?)\n(add --help for usage)\n");
    expect((await h.cli(['-Q', 'list'])).stderr).toContain("error: unknown option '-Q'\n(Did you mean -q?)\n");
    // After the command's word -V is no option either (the version is asked before it): no suggestion.
    expect((await h.cli(['list', '-v'])).stderr).toBe("error: unknown option '-v'\n(add --help for usage)\n");
  });

  it('runs the command after global options, with or without their values attached, and by its alias', async () => {
    const id = String(h.sandbox.state.tickets[0]!.id);
    for (const argv of [
      ['--timeout', '5', '--json', 'show', id],
      ['--timeout=5', '--no-input', 'view', id, '--json'],
      ['--profile', 'default', '-q', '--json', 'show', id],
    ]) {
      const result = await h.cli(argv);

      expect(result.code, argv.join(' ')).toBe(0);
      expect(String(JSON.parse(result.stdout).id), argv.join(' ')).toBe(id);
    }
  });

  it("prints a command's help for tkt help NAME and NAME --help, after global options too", async () => {
    for (const argv of [
      ['help', 'view'],
      ['--json', 'help', 'close'],
      ['--timeout', '5', 'show', '--help'],
    ]) {
      const result = await h.cli(argv);

      expect(result.code, argv.join(' ')).toBe(0);
      expect(result.stdout, argv.join(' ')).toMatch(/^Usage: tkt (show\|view|close) /);
    }
  });

  it('exits 2 on an unknown option, before any request', async () => {
    const calls = listCalls();
    const result = await h.cli(['list', '--frobnicate']);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--frobnicate'");
    expect(listCalls()).toBe(calls);
  });
});
