import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContext } from '../../src/process-host.js';
import { createConfigStore } from '../../src/config/store.js';
import { UsageError } from '../../src/errors.js';
import { askText, assertReadableFiles, readTextOption } from '../../src/cmdutil/text-input.js';
import { DEFAULT_GLOBALS } from '../helpers/harness.js';
import { createTestIO } from '../helpers/io.js';
import { createScriptedPrompter, type ScriptedAnswer } from '../helpers/prompter.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tkt-text-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function context(options: { stdin?: string; tty?: boolean; answers?: ScriptedAnswer[] } = {}) {
  const test = createTestIO({ stdin: options.stdin ?? '', isTTY: options.tty ?? false });
  const prompter = createScriptedPrompter(options.answers ?? []);
  const ctx = await buildContext({
    io: test.io,
    globals: DEFAULT_GLOBALS,
    env: {},
    config: createConfigStore(dir),
    prompter,
    signal: new AbortController().signal,
  });
  return { ctx, prompter };
}

const option = (text: string | undefined, file: string | undefined) => ({ flag: '--message', fileFlag: '--message-file', text, file });

describe('readTextOption', () => {
  it('returns inline text as given, and undefined when neither option is given', async () => {
    const { ctx } = await context({ stdin: 'unused' });
    expect(await readTextOption(ctx, option('hello', undefined))).toBe('hello');
    expect(await readTextOption(ctx, option(undefined, undefined))).toBeUndefined();
  });

  it('reads all of stdin for - in either option', async () => {
    const big = 'ü'.repeat(100_000) + '\n';
    expect(await readTextOption((await context({ stdin: big })).ctx, option('-', undefined))).toBe(big);
    expect(await readTextOption((await context({ stdin: 'piped' })).ctx, option(undefined, '-'))).toBe('piped');
  });

  it('refuses - when stdin is a terminal (it would wait forever)', async () => {
    const { ctx } = await context({ tty: true });
    await expect(readTextOption(ctx, option('-', undefined))).rejects.toThrow(/stdin is a terminal/);
  });

  it('reads a file, and refuses both options at once or a missing file', async () => {
    const file = join(dir, 'msg.txt');
    await writeFile(file, 'from file\n');
    const { ctx } = await context();
    expect(await readTextOption(ctx, option(undefined, file))).toBe('from file\n');
    await expect(readTextOption(ctx, option('x', file))).rejects.toThrow('give --message or --message-file, not both');
    await expect(readTextOption(ctx, option(undefined, join(dir, 'missing.txt')))).rejects.toThrow(UsageError);
  });
});

describe('askText', () => {
  it('takes a typed line, or opens the editor when the line is left empty', async () => {
    const typed = await context({ tty: true, answers: [{ kind: 'input', message: 'Details', value: 'one line' }] });
    expect(await askText(typed.ctx, 'Details')).toBe('one line');
    typed.prompter.assertDone();

    const edited = await context({
      tty: true,
      answers: [
        { kind: 'input', value: '  ' },
        { kind: 'editor', message: 'Details', value: 'several\nlines\n' },
      ],
    });
    expect(await askText(edited.ctx, 'Details')).toBe('several\nlines\n');
    edited.prompter.assertDone();
  });
});

describe('assertReadableFiles', () => {
  it('accepts readable regular files', async () => {
    const file = join(dir, 'ok.txt');
    await writeFile(file, 'ok');
    await expect(assertReadableFiles([file], '--attach')).resolves.toBeUndefined();
  });

  it('names every bad path at once', async () => {
    const locked = join(dir, 'locked.txt');
    await writeFile(locked, 'x');
    await chmod(locked, 0o000);
    const error = await assertReadableFiles([join(dir, 'nope.txt'), dir, locked], '--attach').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    const usage = error as UsageError;
    expect(usage.message).toMatch(/^--attach: cannot read \d files$/);
    expect(usage.details).toContain(`${join(dir, 'nope.txt')}: no such file`);
    expect(usage.details).toContain(`${dir}: a directory, not a file`);
    // root reads anything, so the mode-000 file only fails for other users.
    if (process.getuid?.() !== 0) expect(usage.details).toContain(`${locked}: permission denied`);
  });
});
