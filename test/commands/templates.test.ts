// Reply templates: tkt templates list|show|edit, reply --template, resolve --template (README: Reply templates).
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { run } from '../../src/commands/templates.js';
import { createConfigStore } from '../../src/config/store.js';
import { exitCodeOf, OperationError } from '../../src/errors.js';
import { runCli } from '../../src/program.js';
import { fakeProcess } from '../cli/fake-process.js';
import { argvTable } from '../helpers/program.js';
import type { SandboxTicket } from '../../src/sandbox/index.js';
import type { Harness } from '../helpers/harness.js';
import {
  countInFlight,
  frontEnv,
  routeCount,
  sendsNothing,
  startFrontServer,
  unusedTicket,
  unusedTickets,
  useHarness,
  useTempDir,
} from '../helpers/sandbox-state.js';

const OPEN = 1;
const RESOLVE = 'POST /api/TicketsApi/resolve/{id}';
const REPLY = 'POST /api/TicketsApi/reply/{id}';

let h: Harness;
let dir: string;
// Extra tickets: most tests need open ones of their own.
useHarness({ sandbox: { seedTickets: 60 } }, (harness) => (h = harness));
useTempDir('tkt-templates-', (path) => (dir = path));

const FIXED = `---
subject: "Fixed: {{ticket.title}}"
---
<!-- never sent -->
Hello {{requester.name}},

#{{ticket.id}} ({{ticket.title}}) is fixed.

{{ me.name }}
`;

async function saveTemplate(name: string, text: string | Buffer): Promise<void> {
  await mkdir(join(h.configDir, 'templates'), { recursive: true });
  await writeFile(join(h.configDir, 'templates', `${name}.md`), text);
}

/** saveTemplate, the file removed when the test ends: the list test expects only its own templates. */
async function saveTemplateForTest(name: string, text: string | Buffer): Promise<void> {
  await saveTemplate(name, text);
  onTestFinished(() => rm(join(h.configDir, 'templates', `${name}.md`), { force: true }));
}

const openTicket = () => unusedTicket(h, (t) => t.ticketStatusId === OPEN && !t.locked);
const userById = (id: string | number) => h.sandbox.state.users.find((u) => String(u.id) === String(id))!;
const nameOf = (user: { firstName: string; lastName: string }) => `${user.firstName} ${user.lastName}`;
const me = () => nameOf(h.sandbox.state.users.find((u) => u.username === 'admin')!);
const expectedBody = (ticket: SandboxTicket) => `Hello ${nameOf(userById(ticket.creatorId))},\n\n#${ticket.id} (${ticket.title}) is fixed.\n\n${me()}`;

describe('tkt reply --template and tkt resolve --template', () => {
  it('reply sends the template filled from the ticket, with its subject', async () => {
    await saveTemplate('fixed', FIXED);
    const ticket = openTicket();
    const result = await h.cli(['reply', String(ticket.id), '--template', 'fixed']);
    expect(result.code, result.stderr).toBe(0);
    const sent = h.sandbox.state.conversations.filter((c) => c.ticketId === ticket.id).at(-1);
    expect(sent).toMatchObject({ type: 'Reply', subject: `Fixed: ${ticket.title}`, message: expectedBody(ticket) });
  });

  it('a name close to a template offers it; NAME.md is the template NAME', async () => {
    await saveTemplateForTest('printer-fixed', FIXED);
    const ticket = openTicket();
    const typo = await sendsNothing(h, () => h.cli(['reply', String(ticket.id), '--template', 'printer-fixd']));
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('error: no template "printer-fixd"');
    expect(typo.stderr).toContain('hint: did you mean printer-fixed?\n');
    expect(typo.stderr).not.toContain('templates edit');
    // Nothing near: the hint still says how to create it.
    const far = await h.cli(['reply', String(ticket.id), '--template', 'welcome-aboard']);
    expect(far.stderr).toContain('hint: create it with "tkt templates edit welcome-aboard"\n');

    const withExtension = await h.cli(['reply', String(ticket.id), '--template', 'printer-fixed.md']);
    expect(withExtension.code, withExtension.stderr).toBe(0);
    const sent = h.sandbox.state.conversations.filter((c) => c.ticketId === ticket.id).at(-1);
    expect(sent).toMatchObject({ type: 'Reply', subject: `Fixed: ${ticket.title}` });
    const shown = await h.cli(['--json', 'templates', 'show', 'printer-fixed.md']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ name: 'printer-fixed' });
  });

  it('a template tkt cannot use is not among those a name not found lists, nor the one it offers', async () => {
    await saveTemplateForTest('open', 'Opened.\n');
    // Notepad's "Unicode", a name tkt does not take, a file whose name still ends in ".md" once NAME.md is taken as NAME.
    await saveTemplateForTest('u16', Buffer.from('\ufeffBonjour\r\n', 'utf16le'));
    await saveTemplateForTest('my template', 'Hello\n');
    await saveTemplateForTest('open.md', 'Twin.\n');
    const ticket = openTicket();
    const unknown = await sendsNothing(h, () => h.cli(['reply', String(ticket.id), '--template', 'u1']));
    expect(unknown.code).toBe(2);
    // Other tests' templates are there too.
    const listed = /^ *templates: (.*)$/m.exec(unknown.stderr)?.[1]?.split(', ');
    expect(listed).toContain('open');
    expect(listed?.filter((name) => ['u16', 'my template', 'open.md'].includes(name))).toEqual([]);
    // "u1" starts only u16, which cannot be used: nothing is offered in its place.
    expect(unknown.stderr).toContain('hint: create it with "tkt templates edit u1"\n');
  });

  it('a name that still ends in ".md" once NAME.md is taken as NAME is exit 2 wherever a name is read, before anything is sent', async () => {
    await saveTemplateForTest('fixed', FIXED);
    await saveTemplateForTest('fixed.md', 'Twin.\n');
    const ticket = openTicket();
    const error = 'error: invalid template name "fixed.md.md": a template name does not end in ".md" (NAME.md is the template NAME)';
    for (const argv of [
      ['templates', 'show', 'fixed.md.md'],
      ['reply', String(ticket.id), '--template', 'fixed.md.md'],
      ['resolve', String(ticket.id), '--template', 'fixed.md.md'],
    ]) {
      const result = await sendsNothing(h, () => h.cli(argv));
      expect({ code: result.code, first: result.stderr.split('\n')[0], stdout: result.stdout }, argv.join(' ')).toEqual({ code: 2, first: error, stdout: '' });
    }
    const editor = join(dir, 'append-twin.sh');
    await writeFile(editor, `#!/bin/sh\necho "Edited." >> "$1"\n`);
    await chmod(editor, 0o755);
    const edit = await editAtTerminal('new.md.md', editor);
    expect({ code: edit.code, error: edit.error }).toEqual({ code: 2, error: error.replace('error: ', '').replace('fixed.md.md', 'new.md.md') });
    await expect(readFile(join(h.configDir, 'templates', 'new.md.md'), 'utf8')).rejects.toThrow(/ENOENT/);
    // Its file is left out, said as a name tkt does not take is, not listed as a second "fixed".
    const list = await h.cli(['templates', 'list', '-q']);
    expect(list.stdout.split('\n').filter((name) => name === 'fixed')).toEqual(['fixed']);
    expect(list.stderr).toContain(
      'warning: left out templates/fixed.md.md: a template name does not end in ".md" (NAME.md is the template NAME); rename the file to use it\n',
    );
  });

  it('resolve fills the template for each ticket', async () => {
    await saveTemplate('fixed', FIXED);
    const [first, second] = [openTicket(), openTicket()];
    const result = await h.cli(['resolve', String(first.id), String(second.id), '--template', 'fixed']);
    expect(result.code, result.stderr).toBe(0);
    expect(first.resolution?.details).toBe(expectedBody(first));
    expect(second.resolution?.details).toBe(expectedBody(second));
  });

  it('resolve over several IDs: a ticket that cannot be read fails alone, the others are resolved', async () => {
    await saveTemplate('fixed', FIXED);
    const ticket = openTicket();
    const result = await h.cli(['resolve', String(ticket.id), '99999', '--template', 'fixed']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`✓ #${ticket.id} resolved`);
    expect(result.stderr).toContain('99999');
    expect(ticket.resolution?.details).toBe(expectedBody(ticket));
  });

  it('resolve reads the tickets to fill at most --concurrency at once', async () => {
    // Without {{me.name}}: the front server's run has a token from the environment, which names no one.
    await saveTemplate('done', '#{{ticket.id}} is fixed, {{requester.name}}.\n');
    const tickets = Array.from({ length: 4 }, () => openTicket());
    const limit = 2;
    // A server in front counts the reads as they arrive, as the bulk test of --concurrency does.
    const inFlight = countInFlight(limit, (req) => req.method === 'GET');
    const server = await startFrontServer(h, () => false, inFlight);
    try {
      const result = await h.cli(['-q', 'resolve', ...tickets.map((t) => String(t.id)), '--template', 'done', '--concurrency', String(limit)], {
        env: frontEnv(h, server),
      });
      expect(result).toMatchObject({ code: 0, stderr: '' });
    } finally {
      await server.close();
      await rm(join(h.configDir, 'templates', 'done.md'));
    }
    expect(inFlight.max()).toBe(limit);
    expect(tickets.map((t) => t.resolution?.details)).toEqual(tickets.map((t) => `#${t.id} is fixed, ${nameOf(userById(t.creatorId))}.`));
  });

  it('a value the run lacks or an unknown placeholder is exit 2 naming it, before anything is sent', async () => {
    await saveTemplate('fixed', FIXED);
    await saveTemplate('owner', 'Your owner is {{ticket.owner}}\n');
    const [first, second] = [openTicket(), openTicket()];
    const [resolves, replies] = [routeCount(h, RESOLVE), routeCount(h, REPLY)];
    // A token from the environment comes without the name saved at login: {{me.name}} has no value.
    const env = { TKT_TOKEN: h.sandbox.issueToken('admin'), TKT_URL: h.sandbox.url };
    const noName = await h.cli(['resolve', String(first.id), String(second.id), '--template', 'fixed'], { env });
    expect(noName.code).toBe(2);
    expect(noName.stderr).toContain('template fixed needs {{me.name}}');
    const unknown = await h.cli(['reply', String(first.id), '--template', 'owner']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown placeholder {{ticket.owner}}');
    const missing = await h.cli(['reply', String(first.id), '--template', 'nosuch']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no template "nosuch"');
    const both = await h.cli(['reply', String(first.id), '--template', 'fixed', '--message', 'hi']);
    expect(both.code).toBe(2);
    expect([routeCount(h, RESOLVE), routeCount(h, REPLY)]).toEqual([resolves, replies]);
    expect(first.resolution).toBeFalsy();
  });

  it('a "{{" or "}}" that is no placeholder is exit 2 naming the file, line and text, before anything is sent', async () => {
    // The reviewer's template: a brace missing on line 1, one too few on line 3; a lone brace stays text.
    await saveTemplateForTest('broken', 'Hello {{requester.name},\n\nTicket #{ticket.id}} is fixed.\n{{ me.name }}\n');
    await saveTemplateForTest('closing', '<!-- a comment\nof two lines -->\nTicket #{{ticket.id}} is fixed.\n{{ me.name }\n');
    await saveTemplateForTest('subject', '---\nsubject: "Fixed: {{ticket.title}"\n---\nTicket #{{ticket.id}} is fixed.\n');
    const ticket = unusedTicket(h, (t) => !t.locked);
    const sent = () => [routeCount(h, RESOLVE), routeCount(h, REPLY), h.sandbox.state.conversations.length];
    const before = sent();
    const resolution = structuredClone(ticket.resolution);
    const expected: [string, string][] = [
      ['broken', 'templates/broken.md line 1: "{{requester.name}," is not a placeholder (missing "}}"?)'],
      ['closing', 'templates/closing.md line 4: "{{ me.name }" is not a placeholder (missing "}}"?)'],
      ['subject', 'templates/subject.md line 2: "{{ticket.title}" is not a placeholder (missing "}}"?)'],
    ];
    for (const [name, error] of expected) {
      for (const argv of [
        ['reply', String(ticket.id), '--template', name],
        ['reply', String(ticket.id), '--template', name, '--dry-run'],
        ['resolve', String(ticket.id), '--template', name],
      ]) {
        const result = await h.cli(argv);
        expect(result.code, argv.join(' ')).toBe(2);
        expect(result.stderr.split('\n')[0], argv.join(' ')).toBe(`error: ${error}`);
      }
    }
    await saveTemplateForTest('broken', 'Hello {{requester.name}},\n\nTicket #{ticket.id}} is fixed.\n');
    const closing = await h.cli(['reply', String(ticket.id), '--template', 'broken']);
    expect(closing.stderr.split('\n')[0]).toBe('error: templates/broken.md line 3: "#{ticket.id}}" is not a placeholder (missing "{{"?)');
    expect(sent()).toEqual(before);
    expect(ticket.resolution).toEqual(resolution);
  });

  it('a front matter not closed is exit 2 naming the file and line when used, and a warning in templates list and show', async () => {
    // The reviewer's templates: sent, each went to the customer starting "---" / "subject: x".
    await saveTemplateForTest('unterminated', '---\nsubject: x\n');
    await saveTemplateForTest('dash2', '---\nsubject: x\n--\nBody\n');
    const ticket = unusedTicket(h, (t) => !t.locked);
    const sent = () => [routeCount(h, RESOLVE), routeCount(h, REPLY), h.sandbox.state.conversations.length];
    const before = sent();
    const resolution = structuredClone(ticket.resolution);
    const errors: [string, string][] = [
      ['unterminated', 'error: templates/unterminated.md line 1: the front matter opened by "---" is not closed'],
      ['dash2', 'error: templates/dash2.md line 1: the front matter opened by "---" is not closed'],
    ];
    for (const [name, error] of errors) {
      for (const argv of [
        ['reply', String(ticket.id), '--template', name, '--dry-run'],
        ['reply', String(ticket.id), '--template', name],
        ['resolve', String(ticket.id), '--template', name],
        ['resolve', String(ticket.id), '--template', name, '--dry-run'],
      ]) {
        const result = await h.cli(argv);
        expect({ code: result.code, first: result.stderr.split('\n')[0], stdout: result.stdout }, argv.join(' ')).toEqual({
          code: 2,
          first: error,
          stdout: '',
        });
        expect(result.stderr).toContain('hint: end the front matter with a line "---" after its keys');
        expect(result.stderr.includes('line 3 is not "---"'), argv.join(' ')).toBe(name === 'dash2');
      }
    }
    expect(sent()).toEqual(before);
    expect(ticket.resolution).toEqual(resolution);
    const warning = (name: string) =>
      `warning: templates/${name}.md line 1: the front matter opened by "---" is not closed: the template cannot be used until it is`;
    const list = await h.cli(['templates', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).toContain(warning('dash2'));
    expect(list.stderr).toContain(warning('unterminated'));
    const show = await h.cli(['templates', 'show', 'dash2']);
    expect({ code: show.code, stdout: show.stdout, stderr: show.stderr.trim() }).toEqual({
      code: 0,
      stdout: '---\nsubject: x\n--\nBody\n',
      stderr: warning('dash2'),
    });
  });

  it('a front matter after blank lines is the front matter, not text sent to the customer', async () => {
    await saveTemplateForTest('late', '\n  \n---\nsubject: late {{ticket.id}}\n--- \nBody {{ticket.id}}\n');
    const ticket = openTicket();
    const result = await h.cli(['reply', String(ticket.id), '--template', 'late']);
    expect(result.code, result.stderr).toBe(0);
    const sent = h.sandbox.state.conversations.filter((c) => c.ticketId === ticket.id).at(-1);
    expect(sent).toMatchObject({ subject: `late ${ticket.id}`, message: `Body ${ticket.id}` });
  });

  it('a lone "{" or "}" is sent as text, and so is a "{{" in a value', async () => {
    await saveTemplateForTest('braces', '---\nsubject: "{{ticket.title}} {done}"\n---\nSee {x} and {{{ticket.id}}} or a { b }.\n');
    const ticket = unusedTicket(h, (t) => !t.locked);
    ticket.title = 'Printer {{jammed}}';
    const result = await h.cli(['reply', String(ticket.id), '--template', 'braces']);
    expect(result.code, result.stderr).toBe(0);
    const sent = h.sandbox.state.conversations.filter((c) => c.ticketId === ticket.id).at(-1);
    expect(sent).toMatchObject({ subject: 'Printer {{jammed}} {done}', message: `See {x} and {${ticket.id}} or a { b }.` });
  });

  it('front-matter keys are matched without regard to case; an unknown one is a warning naming it and the known keys', async () => {
    await saveTemplateForTest('capital', '---\nSubject: "Fixed: {{ticket.title}}"\nSUBJECT: "not this one"\nPriority: high\n---\nFixed.\n');
    // Not closed: resolve refuses a closed ticket.
    const closed = h.sandbox.state.lookups.status.find((s) => s.status === 'Closed')!.id;
    const ticket = unusedTicket(h, (t) => !t.locked && t.ticketStatusId !== closed);
    const warning = 'warning: templates/capital.md: unknown front-matter key "Priority" ignored (known keys: subject)';
    const reply = await h.cli(['reply', String(ticket.id), '--template', 'capital']);
    expect(reply.code, reply.stderr).toBe(0);
    expect(h.sandbox.state.conversations.filter((c) => c.ticketId === ticket.id).at(-1)).toMatchObject({
      subject: `Fixed: ${ticket.title}`,
      message: 'Fixed.',
    });
    expect(reply.stderr.trim()).toBe(warning);
    const list = await h.cli(['templates', 'list']);
    expect(list.stdout).toContain('capital\tFixed: {{ticket.title}}\n');
    expect(list.stderr.trim()).toBe(warning);
    const show = await h.cli(['templates', 'show', 'capital']);
    expect(show.stderr.trim()).toBe(warning);
    const resolve = await h.cli(['resolve', String(ticket.id), '--template', 'capital', '--dry-run']);
    expect(resolve.code, resolve.stderr).toBe(0);
    expect(resolve.stderr.trim()).toBe(warning);
  });

  it('a dry run ends as the real run would: the same exit 2 and error, for one ID and many, resolve and reply', async () => {
    await saveTemplate('fixed', FIXED);
    await saveTemplate('owner', 'Your owner is {{ticket.owner}}\n');
    // Nothing is sent, whatever the tickets' status: any two will do.
    const [first, second] = unusedTickets(h, 2) as [SandboxTicket, SandboxTicket];
    const sent = () => [routeCount(h, RESOLVE), routeCount(h, REPLY)];
    const before = sent();
    const tokenEnv = { TKT_TOKEN: h.sandbox.issueToken('admin'), TKT_URL: h.sandbox.url };
    const runs: [string[], Record<string, string>][] = [
      [['resolve', String(first.id), String(second.id), '--template', 'owner'], {}],
      [['resolve', String(first.id), '--template', 'owner'], {}],
      [['resolve', String(first.id), String(second.id), '--template', 'fixed'], tokenEnv],
      [['resolve', String(first.id), '--template', 'fixed'], tokenEnv],
      [['reply', String(first.id), '--template', 'owner'], {}],
      [['reply', String(first.id), '--template', 'fixed'], tokenEnv],
    ];
    for (const [argv, env] of runs) {
      const real = await h.cli(argv, { env });
      const dryRun = await h.cli([...argv, '--dry-run'], { env });
      expect(real.code, argv.join(' ')).toBe(2);
      expect({ code: dryRun.code, stdout: dryRun.stdout, stderr: dryRun.stderr }, argv.join(' ')).toEqual({ code: 2, stdout: '', stderr: real.stderr });
    }
    expect(sent()).toEqual(before);
  });

  it('{{me.name}} under TKT_TOKEN says the token has no name, not to log in again', async () => {
    await saveTemplate('fixed', FIXED);
    const env = { TKT_TOKEN: h.sandbox.issueToken('admin'), TKT_URL: h.sandbox.url };
    const result = await h.cli(['reply', String(unusedTicket(h).id), '--template', 'fixed'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('template fixed needs {{me.name}}');
    expect(result.stderr).toContain('TKT_TOKEN');
    expect(result.stderr).not.toContain('log in again');
  });
});

/**
 * `tkt templates edit NAME` at a terminal, with EDITOR set to `editor` (undefined: not set): its
 * exit code, stdout and the error it ended with, and its hint.
 */
async function editAtTerminal(name: string, editor: string | undefined): Promise<{ code: number; stdout: string; error: string; hint: string }> {
  const r = await h.context({ tty: true, env: { EDITOR: editor ?? '', VISUAL: '', PATH: process.env.PATH! } });
  const error = await run({ action: 'edit', name }, r.ctx).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  return {
    code: error === undefined ? 0 : exitCodeOf(error),
    stdout: r.stdout(),
    error: error instanceof Error ? error.message : '',
    hint: (error as { hint?: string } | undefined)?.hint ?? '',
  };
}

describe('tkt templates', () => {
  it('edit makes no home folder: one HOME names that does not exist is exit 1 naming it', async () => {
    const home = join(dir, 'missing-home', 'does', 'not', 'exist');
    const r = await h.context({ tty: true, env: { EDITOR: 'true', VISUAL: '', PATH: process.env.PATH! } });
    // The store of a config folder found from that home folder, as the CLI makes it (configFolder).
    const ctx = { ...r.ctx, config: createConfigStore(join(home, '.config', 'tkt'), { home }) };
    const error = await run({ action: 'edit', name: 'welcome' }, ctx).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(OperationError);
    expect((error as Error).message).toBe(`cannot write ${join(home, '.config', 'tkt', 'templates', 'welcome.md')}: the home folder ${home} does not exist`);
    await expect(stat(join(dir, 'missing-home'))).rejects.toThrow(/ENOENT/);
  });

  it('lists and shows the templates', async () => {
    const none = await h.cli(['templates', 'list'], { env: { TKT_CONFIG_DIR: join(dir, 'no-config') } });
    expect(none).toMatchObject({ code: 0, stdout: '' });
    expect(none.stderr).toContain('no templates yet');
    await saveTemplate('fixed', FIXED);
    await saveTemplate('owner', 'Your owner is {{ticket.owner}}\n');
    const list = await h.cli(['templates', 'list']);
    // Piped: a tab-separated line per template, as every table is.
    expect(list.stdout).toBe('fixed\tFixed: {{ticket.title}}\nowner\t\n');
    const json = await h.cli(['templates', 'list', '--json']);
    expect(JSON.parse(json.stdout).map((t: { name: string }) => t.name)).toEqual(['fixed', 'owner']);
    const show = await h.cli(['templates', 'show', 'fixed']);
    expect(show.stdout).toBe(FIXED);
    expect((await h.cli(['templates', 'show', '../x'])).code).toBe(2);
  });

  it('refuses a name that starts with neither a letter nor a digit, saying so (.hidden has only allowed characters)', async () => {
    const result = await h.cli(['templates', 'show', '.hidden']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'error: invalid template name ".hidden": a template name is ASCII letters, digits, ".", "-" and "_", starting with a letter or digit\n',
    );
  });

  it('list names each template file it leaves out, and why, on stderr (with -q too); other files go unmentioned', async () => {
    const config = join(dir, 'odd-names');
    await mkdir(join(config, 'templates'), { recursive: true });
    // Editors' backups and hidden files are not templates; "über" and "my template" are names tkt does not take.
    for (const file of ['my template.md', 'über.md', 'ok.md', 'notes.txt', 'ok.md~', '.ok.md.swp', '.hidden.md']) {
      await writeFile(join(config, 'templates', file), 'Hello\n');
    }
    const rule = 'a template name is ASCII letters, digits, ".", "-" and "_", starting with a letter or digit';
    for (const args of [[], ['-q']]) {
      const list = await h.cli(['templates', 'list', ...args], { env: { TKT_CONFIG_DIR: config } });
      expect(list.code).toBe(0);
      expect(list.stdout).toBe(args.length === 0 ? 'ok\t\n' : 'ok\n');
      expect(list.stderr.split('\n').filter((line) => line !== '')).toEqual([
        `warning: left out templates/my template.md: ${rule}; rename the file to use it`,
        `warning: left out templates/über.md: ${rule}; rename the file to use it`,
      ]);
    }
    // Only names it leaves out: none listed, and each said.
    await rm(join(config, 'templates', 'ok.md'));
    const none = await h.cli(['templates', 'list'], { env: { TKT_CONFIG_DIR: config } });
    expect(none).toMatchObject({ code: 0, stdout: '' });
    expect(none.stderr).toContain('warning: left out templates/my template.md');
    expect(none.stderr).toContain('no templates yet');
  });

  it('list leaves out a template not in UTF-8 with a warning, listing the others; the hint converts it into NAME.md again', async () => {
    const config = join(dir, 'utf16-template');
    const folder = join(config, 'templates');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'ok.md'), 'Hello\n');
    // Notepad's "Unicode": UTF-16 with its BOM.
    await writeFile(join(folder, 'u16.md'), Buffer.from('\ufeffBonjour\r\n', 'utf16le'));
    const file = join(folder, 'u16.md');
    const list = await h.cli(['templates', 'list', '-q'], { env: { TKT_CONFIG_DIR: config } });
    expect(list).toMatchObject({ code: 0, stdout: 'ok\n' });
    expect(list.stderr).toBe(
      `warning: left out templates/u16.md: UTF-16 text, not UTF-8; save it as UTF-8, or convert it: iconv -f UTF-16 -t UTF-8 ${file} > ${file}.new && mv ${file}.new ${file}\n`,
    );
  });

  it('list leaves out a folder, a FIFO, a file too large and one it cannot read with a warning; completion offers none of them, and never waits on the FIFO', async () => {
    const config = join(dir, 'not-files');
    const folder = join(config, 'templates');
    await mkdir(join(folder, 'folder.md'), { recursive: true });
    await writeFile(join(folder, 'ok.md'), 'Hello\n');
    execFileSync('mkfifo', [join(folder, 'pipe.md')]);
    await writeFile(join(folder, 'secret.md'), 'Hello\n');
    await chmod(join(folder, 'secret.md'), 0o000);
    // Sparse: larger than tkt reads, refused by its size before a byte is read.
    await writeFile(join(folder, 'huge.md'), '');
    await truncate(join(folder, 'huge.md'), 65 * 1024 * 1024);
    const env = { TKT_CONFIG_DIR: config };
    // root reads anything; for others the warning names what the system said.
    const usable = process.getuid?.() === 0 ? 'ok\nsecret\n' : 'ok\n';
    const list = await h.cli(['templates', 'list', '-q'], { env });
    expect(list).toMatchObject({ code: 0, stdout: usable });
    expect(list.stderr).toContain('warning: left out templates/folder.md: not a file\n');
    expect(list.stderr).toContain('warning: left out templates/pipe.md: not a file\n');
    expect(list.stderr).toContain('warning: left out templates/huge.md: larger than 64 MB, more than tkt reads\n');
    if (usable === 'ok\n') expect(list.stderr).toMatch(/warning: left out templates\/secret\.md: cannot read it: .*permission denied/);
    expect(await h.cli(['__complete', 'template'], { env })).toEqual({ code: 0, stdout: usable, stderr: '' });
    const show = await h.cli(['templates', 'show', 'pipe'], { env });
    expect({ code: show.code, first: show.stderr.split('\n')[0] }).toEqual({
      code: 2,
      first: `error: template pipe (${join(folder, 'pipe.md')}) is not a file`,
    });
  });

  it('lists the templates at a terminal as a table whose columns line up', async () => {
    await saveTemplate('a', '---\nsubject: "First"\n---\nA\n');
    await saveTemplate('a-much-longer-name', '---\nsubject: "Second"\n---\nB\n');
    const r = await h.context({ tty: true });
    await run({ action: 'list' }, r.ctx);
    const lines = r.stdout().split('\n');
    expect(lines[0]).toMatch(/^NAME +SUBJECT$/);
    const subjectAt = lines[0]!.indexOf('SUBJECT');
    expect(lines.find((line) => line.startsWith('a '))!.indexOf('First')).toBe(subjectAt);
    expect(lines.find((line) => line.startsWith('a-much-longer-name'))!.indexOf('Second')).toBe(subjectAt);
  });

  it('edit opens $EDITOR on the template, created from the commented example', async () => {
    const editor = join(dir, 'editor.sh');
    // The scripted editor records what it was given, then appends a line.
    await writeFile(editor, `#!/bin/sh\ncp "$1" ${join(dir, 'seen.md')}\necho "Edited." >> "$1"\n`);
    await chmod(editor, 0o755);
    const result = await editAtTerminal('welcome', editor);
    expect(result.code, result.error).toBe(0);
    expect(result.stdout).toContain('Created template welcome');
    const seen = await readFile(join(dir, 'seen.md'), 'utf8');
    expect(seen).toContain('subject: "Re: {{ticket.title}}"');
    expect(seen).toContain('<!--');
    const saved = await readFile(join(h.configDir, 'templates', 'welcome.md'), 'utf8');
    expect(saved).toBe(`${seen}Edited.\n`);
    const again = await editAtTerminal('welcome', editor);
    expect(again.stdout).toContain('Saved template welcome');
    expect(await readFile(join(dir, 'seen.md'), 'utf8')).toBe(saved);
  });

  it('edit NAME.md edits the template NAME, not a NAME.md.md', async () => {
    const editor = join(dir, 'append.sh');
    await writeFile(editor, `#!/bin/sh\necho "Edited." >> "$1"\n`);
    await chmod(editor, 0o755);
    onTestFinished(() => rm(join(h.configDir, 'templates', 'hello.md'), { force: true }));
    const result = await editAtTerminal('hello.md', editor);
    expect(result.code, result.error).toBe(0);
    expect(result.stdout).toContain('Created template hello:');
    expect(await readFile(join(h.configDir, 'templates', 'hello.md'), 'utf8')).toContain('Edited.');
    await expect(readFile(join(h.configDir, 'templates', 'hello.md.md'), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('list finds none, and edit names the path that is not a folder, when TKT_CONFIG_DIR is a file', async () => {
    const file = join(dir, 'not-a-folder');
    await writeFile(file, 'a file\n');
    const none = await h.cli(['templates', 'list'], { env: { TKT_CONFIG_DIR: file } });
    expect(none).toMatchObject({ code: 0, stdout: '' });
    expect(none.stderr).toContain('no templates yet');

    const r = await h.context({ tty: true, env: { EDITOR: 'true', VISUAL: '', PATH: process.env.PATH! } });
    const error = await run({ action: 'edit', name: 'welcome' }, { ...r.ctx, config: createConfigStore(file) }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OperationError);
    expect((error as Error).message).toBe(`cannot create ${file}/templates/welcome.md: ${file} is not a folder`);
  });

  it('edit never starts the editor without a terminal to ask on (piped, CI, --no-input): exit 2, no template made', async () => {
    const editor = join(dir, 'editor.sh');
    const started = join(dir, 'editor-started');
    await writeFile(editor, `#!/bin/sh\ntouch ${started}\necho "Edited." >> "$1"\n`);
    await chmod(editor, 0o755);
    const env = { ...h.env, EDITOR: editor, PATH: process.env.PATH! };
    // At a terminal, CI or --no-input still means never ask: the streams all claim to be terminals.
    const atTerminal = async (argv: string[], extraEnv: Record<string, string> = {}) => {
      const proc = fakeProcess({ stdin: true, stdout: true, stderr: true }, { ...env, ...extraEnv });
      let stderr = '';
      proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const code = await runCli(argv, proc, { argvTable });
      return { code, stderr };
    };
    // Each says why nothing is asked: "no terminal" at a terminal would be wrong.
    const runs = [
      [await h.cli(['templates', 'edit', 'fresh'], { env }), 'no terminal to ask on', 'run at a terminal'],
      [await h.cli(['--no-input', 'templates', 'edit', 'fresh'], { env }), '--no-input: nothing is asked', 'run without --no-input'],
      [await atTerminal(['templates', 'edit', 'fresh'], { CI: 'true' }), 'CI is set: nothing is asked', 'run with CI unset'],
      [await atTerminal(['--no-input', 'templates', 'edit', 'fresh']), '--no-input: nothing is asked', 'run without --no-input'],
    ] as const;
    for (const [result, reason, remedy] of runs) {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.split('\n')[0]).toBe(`error: cannot open the editor on template fresh (${reason})`);
      expect(result.stderr).toContain(`hint: ${remedy}, or write `);
      expect(result.stderr).not.toContain('keeps');
    }
    await expect(readFile(started)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readFile(join(h.configDir, 'templates', 'fresh.md'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('edit: a failing editor on a new template says it was not created, and claims no file keeps anything', async () => {
    const failed = await editAtTerminal('broken', 'false');
    expect(failed.code).toBe(1);
    expect(failed.error).toContain('template broken was not created');
    expect(failed.error).not.toContain('keeps');
    await expect(readFile(join(h.configDir, 'templates', 'broken.md'))).rejects.toMatchObject({ code: 'ENOENT' });

    // A template that exists keeps what the editor saved before failing.
    await saveTemplate('kept', FIXED);
    const editor = join(dir, 'fails-after-save.sh');
    await writeFile(editor, `#!/bin/sh\necho "Edited." >> "$1"\nexit 3\n`);
    await chmod(editor, 0o755);
    const file = join(h.configDir, 'templates', 'kept.md');
    const kept = await editAtTerminal('kept', editor);
    expect(kept.code).toBe(1);
    expect(kept.error).toContain(`${file} keeps what the editor saved`);
    expect(await readFile(file, 'utf8')).toBe(`${FIXED}Edited.\n`);

    // An editor that fails without writing leaves the template as it was, and says so.
    await saveTemplate('kept', FIXED);
    const untouched = await editAtTerminal('kept', 'false');
    expect(untouched.code).toBe(1);
    expect(untouched.error).toContain(`${file} is as it was`);
    expect(untouched.error).not.toContain('keeps');
    expect(await readFile(file, 'utf8')).toBe(FIXED);
  });

  it('edit keeps no new template when the example comes back unchanged (exit 1, as git with an unchanged message)', async () => {
    const file = join(h.configDir, 'templates', 'untouched.md');
    const quit = await editAtTerminal('untouched', 'true');
    expect(quit.code).toBe(1);
    expect(quit.error).toMatch(/^template untouched not created: the example was left unchanged/);
    expect(quit.stdout).not.toContain('Created');
    await expect(readFile(file)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await h.cli(['templates', 'list'])).stdout).not.toContain('untouched');

    // A template that exists is left as it is, and said to be unchanged.
    await saveTemplate('kept', FIXED);
    const again = await editAtTerminal('kept', 'true');
    expect(again).toMatchObject({ code: 0, stdout: `template kept unchanged: ${join(h.configDir, 'templates', 'kept.md')}\n` });
    expect(await readFile(join(h.configDir, 'templates', 'kept.md'), 'utf8')).toBe(FIXED);
  });

  it('edit: an editor that cannot run comes with a hint naming where it was chosen, not another editor to try', async () => {
    const notInstalled = 'no-such-editor-tkt';
    expect((await h.cli(['config', 'set', 'editor', notInstalled])).code).toBe(0);
    try {
      const fromSetting = await editAtTerminal('hinted', undefined);
      expect(fromSetting.code).toBe(1);
      // The shell's 127: the editor never ran, so the template is not said to keep anything of it.
      expect(fromSetting.error).toBe(`could not start the editor "${notInstalled}" (the shell found no such command); template hinted was not created`);
      expect(fromSetting.hint).toBe('the editor setting names it: change it with "tkt config set editor COMMAND", or set $EDITOR');

      const fromVariable = await editAtTerminal('hinted', notInstalled);
      expect(fromVariable.hint).toBe('$EDITOR names it: set $EDITOR to an editor installed here, or unset it to use the editor setting');
    } finally {
      await h.cli(['config', 'unset', 'editor']);
    }
    await expect(readFile(join(h.configDir, 'templates', 'hinted.md'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
