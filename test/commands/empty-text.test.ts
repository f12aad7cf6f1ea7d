// An empty or whitespace-only text (the message of a reply, the notes of a resolve, a new
// ticket's description...) is exit 2 before any request, naming the option and where the text
// came from: inline, a file, or stdin. Nothing reaches the sandbox: no e-mail with an empty body.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { integrationCreateArgs, validCreateArgs } from '../helpers/create-args.js';
import type { Harness } from '../helpers/harness.js';
import { routeCount, sendsNothing, unusedTicket, useHarness, useTempDir } from '../helpers/sandbox-state.js';

let h: Harness;
let dir: string;
useHarness({}, (harness) => (h = harness));
useTempDir('tkt-empty-text-', (path) => (dir = path));

const OPEN = 1;
const REGISTER = 'POST /api/TicketsApi/register';
let id: string;
let emptyFile: string;
let blankFile: string;

beforeAll(async () => {
  id = String(unusedTicket(h, (t) => t.ticketStatusId === OPEN && !t.locked).id);
  emptyFile = join(dir, 'empty.txt');
  blankFile = join(dir, 'blank.txt');
  await writeFile(emptyFile, '');
  await writeFile(blankFile, ' \n\t\n');
});

// Without a description: each case gives its own.
const CREATE = ['create', ...validCreateArgs({ description: null })];
const INTEGRATION = ['create', ...integrationCreateArgs({ description: null })];

/** Each command and text option, and the arguments that make a whole command around it. */
const TEXT_OPTIONS: readonly { name: string; argv: (text: string[]) => string[]; flag: string; fileFlag?: string }[] = [
  { name: 'reply', argv: (text) => ['reply', id, '--to', 'a@example.com', '--subject', 'S', ...text], flag: '--message', fileFlag: '--message-file' },
  {
    name: 'reply --as-requester',
    argv: (text) => ['reply', id, '--as-requester', 'aberg', '--subject', 'S', ...text],
    flag: '--message',
    fileFlag: '--message-file',
  },
  { name: 'forward', argv: (text) => ['forward', id, '--to', 'a@example.com', '--subject', 'S', ...text], flag: '--message', fileFlag: '--message-file' },
  { name: 'resolve', argv: (text) => ['resolve', id, ...text], flag: '--details', fileFlag: '--details-file' },
  { name: 'close --comments', argv: (text) => ['close', id, ...text], flag: '--comments' },
  { name: 'close --closure-comments', argv: (text) => ['close', id, ...text], flag: '--closure-comments' },
  { name: 'create', argv: (text) => [...CREATE, ...text], flag: '--description', fileFlag: '--description-file' },
  { name: 'create --integration', argv: (text) => [...INTEGRATION, ...text], flag: '--description', fileFlag: '--description-file' },
];

/** Runs the command and expects exit 2 with exactly this error, no request sent. */
async function refused(argv: string[], error: string, stdin = ''): Promise<void> {
  const result = await sendsNothing(h, () => h.cli(argv, { stdin }));
  expect(result.stderr.split('\n')[0]).toBe(`error: ${error}`);
  expect(result).toMatchObject({ code: 2, stdout: '' });
}

describe.each(TEXT_OPTIONS)('$name', ({ argv, flag, fileFlag }) => {
  it(`refuses an empty or whitespace-only ${flag} before any request`, async () => {
    await refused(argv([flag, '']), `${flag} is empty`);
    await refused(argv([flag, '  \n ']), `${flag} is empty (only whitespace)`);
  });

  it(`says that stdin was empty for ${flag} -`, async () => {
    await refused(argv([flag, '-']), `${flag} -: stdin was empty`);
    await refused(argv([flag, '-']), `${flag} -: stdin was empty (only whitespace)`, '\n \n');
  });

  // close's comments have no file option.
  if (fileFlag === undefined) return;
  it(`refuses an empty or whitespace-only ${fileFlag}, and an empty stdin for ${fileFlag} -`, async () => {
    await refused(argv([fileFlag, emptyFile]), `${fileFlag} ${emptyFile} is empty`);
    await refused(argv([fileFlag, blankFile]), `${fileFlag} ${blankFile} is empty (only whitespace)`);
    await refused(argv([fileFlag, '-']), `${fileFlag} -: stdin was empty`);
  });
});

describe('empty option values', () => {
  it.each([
    { name: '--url VALUE list', flag: '--url', argv: (value: string) => ['--url', value, 'list'] },
    { name: '--profile VALUE list', flag: '--profile', argv: (value: string) => ['--profile', value, 'list'] },
    { name: 'list --search VALUE', flag: '--search', argv: (value: string) => ['list', '--search', value] },
    { name: 'forward --to VALUE', flag: '--to', argv: (value: string) => ['forward', id, '--to', value, '--message', 'M'] },
    { name: 'reply --to VALUE', flag: '--to', argv: (value: string) => ['reply', id, '--to', value, '--message', 'M'] },
    { name: 'forward --cc VALUE', flag: '--cc', argv: (value: string) => ['forward', id, '--to', 'a@example.com', '--cc', value, '--message', 'M'] },
    // Field options of create and update: an empty value was once taken as the option left out.
    { name: 'update --priority VALUE', flag: '--priority', argv: (value: string) => ['update', id, '--priority', value] },
    { name: 'update --status VALUE beside another', flag: '--status', argv: (value: string) => ['update', id, '--status', value, '--priority', 'high'] },
    { name: 'update --due VALUE', flag: '--due', argv: (value: string) => ['update', id, '--due', value] },
    { name: 'update --type VALUE', flag: '--type', argv: (value: string) => ['update', id, '--type', value] },
    { name: 'create --site VALUE', flag: '--site', argv: (value: string) => [...CREATE, '--description', 'D', '--site', value] },
    { name: 'create --title VALUE', flag: '--title', argv: (value: string) => ['create', ...validCreateArgs({ title: value })] },
    { name: 'create --attach VALUE', flag: '--attach', argv: (value: string) => ['create', ...validCreateArgs(), '--attach', value] },
    // Every other option that takes a lookup name or a person.
    { name: 'list --status VALUE', flag: '--status', argv: (value: string) => ['list', '--status', value] },
    { name: 'list --assignee VALUE', flag: '--assignee', argv: (value: string) => ['list', '--assignee', value] },
    { name: 'list --requester VALUE', flag: '--requester', argv: (value: string) => ['list', '--requester', value] },
    { name: 'reopen --status VALUE', flag: '--status', argv: (value: string) => ['reopen', id, '--status', value] },
    { name: 'resolve --by VALUE', flag: '--by', argv: (value: string) => ['resolve', id, '--by', value, '--details', 'D'] },
    { name: 'reply --as-requester VALUE', flag: '--as-requester', argv: (value: string) => ['reply', id, '--as-requester', value, '--message', 'M'] },
    { name: 'assign ID USER', flag: 'USER', argv: (value: string) => ['assign', id, value] },
    // Not a file that cannot be read: an argument with no name in it ("error: attach: cannot read file /  : no such file").
    { name: 'attach ID FILE', flag: 'FILE', argv: (value: string) => ['attach', id, value] },
    { name: 'attach ID FILE FILE', flag: 'FILE', argv: (value: string) => ['attach', id, emptyFile, value] },
  ])('$name: an empty value is exit 2 naming $flag, not an option left out', async ({ flag, argv }) => {
    await refused(argv(''), `${flag} is empty`);
    await refused(argv(' '), `${flag} is empty (only whitespace)`);
  });
});

describe('create --title', () => {
  it('refuses a whitespace-only title before any request', async () => {
    const argv = ['create', ...validCreateArgs({ title: ' \t ' })];
    await refused(argv, '--title is empty (only whitespace)');
  });
});

describe('create --from', () => {
  it("makes a whitespace-only title or description that row's validation error, sending nothing", async () => {
    const file = join(dir, 'rows.jsonl');
    const row = { requester: 'aberg', site: 'Head Office', department: 'IT', status: 'Open' };
    await writeFile(
      file,
      [
        { ...row, title: 'Fine', description: 'Fine' },
        { ...row, title: 'A', description: ' \n ' },
        { ...row, title: '  ', description: 'B' },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const tickets = h.sandbox.state.tickets.length;
    const registers = routeCount(h, REGISTER);
    // The rows' names are resolved (lookups are read) before any ticket is created.
    const result = await h.cli(['create', '--from', file]);
    expect(routeCount(h, REGISTER)).toBe(registers);
    expect(h.sandbox.state.tickets.length).toBe(tickets);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: 2 of 3 rows in ${file} are not valid; nothing was sent`);
    // A blank cell is a column left out (README): the row lacks a required text.
    expect(result.stderr).toContain('row 2 (line 2): missing description');
    expect(result.stderr).toContain('row 3 (line 3): missing title');
  });
});
