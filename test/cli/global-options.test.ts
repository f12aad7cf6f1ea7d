// Global options stand before the command's word or anywhere after it, and a word that is an
// option's value is that value, never a global option (src/commander-program.ts, shareGlobalOptions),
// unless it is a long option, which is refused (src/cmdutil/flag-as-value.ts):
// the command lines of a fresh user's review, through the quick path and through commander.
import { describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { routeCount, unusedTicket, useHarness } from '../helpers/sandbox-state.js';
import { commandPaths, helpOf } from '../helpers/program.js';

const REPLY = 'POST /api/TicketsApi/reply/{id}';
const CLOSE = 'POST /api/TicketsApi/close/{id}';
const DELETE = 'DELETE /api/TicketsApi/{id}';

let h: Harness;
useHarness({}, (harness) => (h = harness));

const openTicket = () => unusedTicket(h, (t) => !t.locked && !t.isDeleted && t.ticketStatusId === 1);

describe('a value that looks like a global option', () => {
  it('is the value of the option before it, and a --dry-run after it sends nothing', async () => {
    const ticket = openTicket();
    const replies = routeCount(h, REPLY);
    const closes = routeCount(h, CLOSE);
    for (const [argv, field, value] of [
      [['reply', String(ticket.id), '--message', '-Vpn is down again', '--dry-run'], 'Message', '-Vpn is down again'],
      [['reply', String(ticket.id), '--message', '-q is the flag you need', '--dry-run'], 'Message', '-q is the flag you need'],
      [['reply', String(ticket.id), '--message=--json', '--dry-run'], 'Message', '--json'],
      [['reply', String(ticket.id), '--message', '-V'], 'Message', '-V'],
      [['close', String(ticket.id), '--comments=--debug', '--dry-run'], 'Comments', '--debug'],
    ] as const) {
      const dryRun = argv.includes('--dry-run');
      const result = await h.cli(dryRun ? [...argv] : [...argv, '--dry-run']);
      expect({ argv, code: result.code, stderr: result.stderr }).toEqual({ argv, code: 0, stderr: '' });
      expect(result.stdout).toContain('dry run: would send POST');
      expect(result.stdout).toMatch(new RegExp(`${field}: +${value.replace(/[-.]/g, '\\$&')}\n`));
    }
    expect(routeCount(h, REPLY)).toBe(replies);
    expect(routeCount(h, CLOSE)).toBe(closes);
  });

  it("is refused when it is one of the command line's long options, as a value left out would make it, and nothing is sent", async () => {
    // `--message $MSG --dry-run` with $MSG empty and unquoted: the run must not send "--dry-run" for real.
    const ticket = openTicket();
    const replies = routeCount(h, REPLY);
    const closes = routeCount(h, CLOSE);
    for (const [argv, option, value] of [
      [['reply', String(ticket.id), '--message', '--dry-run'], '--message', '--dry-run'],
      [['reply', String(ticket.id), '--message', '--json', '--dry-run'], '--message', '--json'],
      [['close', String(ticket.id), '--comments', '--dry-run'], '--comments', '--dry-run'],
      [['close', String(ticket.id), '--comments', '--timeout=5'], '--comments', '--timeout=5'],
      [['--profile', '--json', 'show', String(ticket.id)], '--profile', '--json'],
    ] as const) {
      const result = await h.cli([...argv]);
      expect({ argv, code: result.code, stdout: result.stdout }).toEqual({ argv, code: 2, stdout: '' });
      expect(result.stderr).toContain(`error: ${option} took "${value}" as its value, which is one of this command's options\n`);
      expect(result.stderr).toContain(`write ${option}=${value}`);
    }
    expect(routeCount(h, REPLY)).toBe(replies);
    expect(routeCount(h, CLOSE)).toBe(closes);
  });

  it('is read as text by --search, not as the version', async () => {
    const result = await h.cli(['list', '--search', '-V', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('0.0.0-test');
    expect(JSON.parse(result.stdout)).toEqual([]);
  });
});

describe('global options anywhere', () => {
  it('are read before the command, after it, between its arguments, and grouped with its own short flags', async () => {
    const id = String(openTicket().id);
    for (const argv of [
      ['--json', 'show', id],
      ['show', id, '--json'],
      ['show', '--json', id],
      ['--timeout', '5', 'show', id, '--json'],
      ['show', id, '--timeout=5', '--json'],
    ]) {
      const result = await h.cli(argv);
      expect({ argv, code: result.code, stderr: result.stderr }).toEqual({ argv, code: 0, stderr: '' });
      expect(JSON.parse(result.stdout)).toMatchObject({ id: Number(id) });
    }
    const deletes = routeCount(h, DELETE);
    for (const flags of [['-yq'], ['-qy'], ['-y', '-q']]) {
      const result = await h.cli(['delete', id, ...flags, '--dry-run']);
      expect({ flags, code: result.code, stderr: result.stderr }).toEqual({ flags, code: 0, stderr: '' });
    }
    expect(routeCount(h, DELETE)).toBe(deletes);
  });

  it('take the value given after the command over the one before it', async () => {
    const id = String(openTicket().id);
    const both = await h.cli(['--json', 'show', id, '-q']);
    expect(both.code, both.stderr).toBe(0);
    const quietFirst = await h.cli(['-q', 'show', id, '--json']);
    expect(quietFirst.stdout).toBe(both.stdout);
    // --no-input before the command stays, whatever the command's copy defaults to.
    const noInput = await h.cli(['--no-input', 'delete', id], { env: { CI: '' } });
    expect(noInput.code).toBe(2);
  });
});

describe("a command's help", () => {
  const pointer = /^Global options \((.+)\): tkt --help$/;
  const pointersOf = (help: string) => help.split('\n').filter((line) => line.startsWith('Global options'));
  const programOptions = helpOf([]);

  it('points to the global options under its own, as gh lists its inherited flags: those that apply there, named in tkt --help', async () => {
    const close = await h.cli(['close', '--help']);
    expect(close.code).toBe(0);
    // Right under the command's options, before its prose and examples.
    expect(close.stdout).toContain('  -h, --help                 show help\n\nGlobal options (--json, -q, --query, --profile, --url, ...): tkt --help\n\n');
    for (const path of commandPaths().filter(([name]) => name !== 'help' && name !== 'completion')) {
      const lines = pointersOf(helpOf(path));
      expect(lines, path.join(' ')).toHaveLength(1);
      const named = pointer
        .exec(lines[0]!)![1]!
        .split(', ')
        .filter((word) => word !== '...');
      expect(named.length, path.join(' ')).toBeGreaterThan(0);
      for (const option of named) expect(programOptions, `${path.join(' ')}: ${option}`).toMatch(new RegExp(`^  (-\\w, )?${option}\\b`, 'm'));
    }
  });

  it('names no global option a command refuses or has no use for, and none at all where none changes anything', async () => {
    // mcp's stdout is the protocol and triage's a screen: --json, -q and --query are exit 2 there.
    for (const name of ['mcp', 'triage']) {
      expect(pointersOf(helpOf([name]))).toEqual(['Global options (--profile, --url, --timeout, --debug, ...): tkt --help']);
      expect((await h.cli([name, '--json'])).code).toBe(2);
    }
    // The sandbox is a service of its own: no URL, profile or time-out to choose.
    expect(pointersOf(helpOf(['sandbox']))).toEqual(['Global options (--json, -q, --query, ...): tkt --help']);
    // A completion script and a help text are the same whatever global option is given.
    expect(pointersOf(helpOf(['completion']))).toEqual([]);
    expect(pointersOf((await h.cli(['help', '--help'])).stdout)).toEqual([]);
  });
});
