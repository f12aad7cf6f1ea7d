import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EditorFailedError, exitCodeOf, InterruptedError, OperationError, typedTextOf, UsageError } from '../../src/errors.js';
import { editedText, editorCommand, editText, instructionLines, SCISSORS } from '../../src/prompts/editor.js';
import { createInquirerPrompter } from '../../src/prompts/inquirer.js';
import { createCollector } from '../helpers/io.js';

// Editors are small shell scripts: the file to edit arrives as "$1".
const writing = (text: string) => `sh -c 'printf "${text}" > "$1"' --`;
/** The editor setting `command` (test/commands/templates.test.ts checks the hints). */
const editing = (command: string) => ({ command, hint: 'change the editor setting' });

let scratch: string;
beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'tkt-editor-test-'));
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('editText', () => {
  it('returns what the user wrote, lines starting with # included', async () => {
    const text = await editText({ message: 'Description', env: {}, editor: editing(writing('\\nPrinter jams\\n#1234 again\\n# Floor 2\\n\\n')) });
    expect(text).toBe('Printer jams\n#1234 again\n# Floor 2');
  });

  it('sends a default text with # lines, saved as is, as is: only the scissors and what is below them are dropped', async () => {
    const copy = join(scratch, 'seen');
    // Saved unchanged (vi's :wq): its time moves, its text does not.
    const text = await editText({
      message: 'Reply to #7',
      default: '#7 is fixed.\n\n# What we did\n- toner',
      env: {},
      editor: editing(`sh -c 'cp "$1" "${copy}" && touch -d 2001-01-01 "$1"' --`),
    });
    expect(text).toBe('#7 is fixed.\n\n# What we did\n- toner');
    expect(await readFile(copy, 'utf8')).toBe(`#7 is fixed.\n\n# What we did\n- toner\n\n${instructionLines('Reply to #7').join('\n')}\n`);
  });

  it('opens a file holding the default text and the message as a comment, then removes it', async () => {
    const copy = join(scratch, 'seen');
    const text = await editText({
      message: 'Reply to ticket 42',
      default: 'Dear user,',
      env: {},
      editor: editing(`sh -c 'cp "$1" "${copy}"; echo "$1" > "${copy}.path"; touch -d 2001-01-01 "$1"' --`),
    });
    expect(text).toBe('Dear user,');
    const seen = await readFile(copy, 'utf8');
    expect(seen.startsWith('Dear user,\n')).toBe(true);
    expect(seen).toContain('# Reply to ticket 42\n');
    const editedPath = (await readFile(`${copy}.path`, 'utf8')).trim();
    expect(existsSync(editedPath)).toBe(false);
  });

  it("a default text the editor quit without saving (vi's :q!) is a no: exit 1, nothing returned to send, and how to send it as it is", async () => {
    const error: unknown = await editText({ message: 'Reply to #7', default: 'Dear user, it is fixed.', env: {}, editor: editing('true') }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OperationError);
    expect(error).not.toBeInstanceOf(EditorFailedError);
    expect((error as OperationError).message).toBe('aborted: the editor did not save the text, nothing was sent');
    expect((error as OperationError).hint).toBe('save the file to send it, changed or not (in vi :wq; ZZ and :x save only a text changed)');
    expect(exitCodeOf(error)).toBe(1);
    // Rewritten at once, within the clock's tick, with another text of the same length: saved.
    const changed = await editText({ message: 'Reply to #7', default: 'aaaa', env: {}, editor: editing(`sed -i s/aaaa/bbbb/`) });
    expect(changed).toBe('bbbb');
  });

  it('aborts as git commit does when the text is empty: a failed operation (exit 1), not a usage error', async () => {
    const error: unknown = await editText({ message: 'Description', env: {}, editor: editing('true') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationError);
    expect((error as OperationError).message).toBe('aborted: empty message, nothing was sent');
  });

  it('fails with an OperationError when the editor fails or does not exist', async () => {
    await expect(editText({ message: 'm', env: {}, editor: editing('false') })).rejects.toBeInstanceOf(OperationError);
    await expect(editText({ message: 'm', env: { PATH: process.env.PATH }, editor: editing('no-such-editor-tkt') })).rejects.toThrow(
      /could not start the editor "no-such-editor-tkt" \(the shell found no such command\)/,
    );
  });

  it("gives where the editor was chosen as the hint only when it could not start: one that ran and said no (vi's :cq) gets none", async () => {
    const refused = await editText({ message: 'm', env: { PATH: process.env.PATH }, editor: editing('false') }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OperationError);
    expect((refused as OperationError).hint).toBeUndefined();
    const missing = await editText({ message: 'm', env: { PATH: process.env.PATH }, editor: editing('no-such-editor-tkt') }).catch((error: unknown) => error);
    expect((missing as OperationError).hint).toBe('change the editor setting');
  });

  it('an editor that is a path with spaces, given unquoted, gets the hint to quote it; quoted, it runs', async () => {
    const folder = join(scratch, 'Program Files');
    await mkdir(folder);
    const editor = join(folder, 'edit.sh');
    await writeFile(editor, '#!/bin/sh\nprintf "Quoted works" > "$1"\n');
    await chmod(editor, 0o755);
    const choice = (command: string) => ({ ...editing(command), unquotedHint: 'quote it' });
    const unquoted = await editText({ message: 'm', env: { PATH: process.env.PATH }, editor: choice(editor) }).catch((error: unknown) => error);
    expect((unquoted as OperationError).message).toBe(`could not start the editor "${editor}" (the shell found no such command); nothing was sent`);
    expect((unquoted as OperationError).hint).toBe('quote it');
    // A path with spaces that is not there is no command to quote: the usual hint.
    const missing = await editText({ message: 'm', env: { PATH: process.env.PATH }, editor: choice(join(folder, 'gone.sh')) }).catch((error: unknown) => error);
    expect((missing as OperationError).hint).toBe('change the editor setting');
    expect(await editText({ message: 'm', env: { PATH: process.env.PATH }, editor: choice(`"${editor}"`) })).toBe('Quoted works');
  });

  it('names a quoted editor that failed as it was given, with no quotes added', async () => {
    const failed = await editText({ message: 'm', env: { PATH: process.env.PATH }, editor: editing(`"${join(scratch, 'no such', 'editor')}"`) }).catch(
      (error: unknown) => error,
    );
    expect((failed as OperationError).message).toBe(
      `could not start the editor "${join(scratch, 'no such', 'editor')}" (the shell found no such command); nothing was sent`,
    );
    const refused = await editText({ message: 'm', env: { PATH: process.env.PATH }, editor: editing(`'false' --wait`) }).catch((error: unknown) => error);
    expect((refused as OperationError).message).toBe(`the editor 'false' --wait failed (exit code 1); nothing was sent`);
  });

  it('keeps the text typed before the editor failed (an exit code, a signal) in the error, to be saved as a draft', async () => {
    for (const ending of ['exit 3', 'kill -TERM $$']) {
      const failed = await editText({
        message: 'm',
        default: 'Hello',
        env: { PATH: process.env.PATH },
        editor: editing(`sh -c 'printf "Typed text\\n" > "$1"; ${ending}' --`),
      }).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(EditorFailedError);
      expect((failed as EditorFailedError).typed).toBe('Typed text');
      expect((failed as EditorFailedError).message).toMatch(/^the editor ".*" failed \(exit code (3|143)\); nothing was sent$/);
    }
    // Ended by Ctrl-C (`code --wait`, waiting in the shell): interrupted, with what it had saved. The
    // terminal's SIGINT reaches the shell tkt starts it with as well.
    const interrupted = await editText({
      message: 'm',
      default: 'Hello',
      env: { PATH: process.env.PATH },
      editor: editing(`sh -c 'printf "Saved before Ctrl-C\\n" > "$1"; kill -INT $PPID $$' --`),
    }).catch((error: unknown) => error);
    expect(interrupted).toBeInstanceOf(InterruptedError);
    expect(exitCodeOf(interrupted)).toBe(130);
    expect(typedTextOf(interrupted)).toBe('Saved before Ctrl-C');
    // Nothing typed (the file as tkt wrote it): nothing to keep.
    const untouched = await editText({ message: 'm', default: 'Hello', env: {}, editor: editing('false') }).catch((error: unknown) => error);
    expect(untouched).toBeInstanceOf(OperationError);
    expect(untouched).not.toBeInstanceOf(EditorFailedError);
  });

  it('never sends the text it put in the file when an editor that succeeded left no file to read', async () => {
    for (const editor of ['rm', `sh -c 'rm "$1" && mkdir "$1"' --`]) {
      const failed = await editText({ message: 'm', default: 'TEMPLATE BODY', env: { PATH: process.env.PATH }, editor: editing(editor) }).catch(
        (error: unknown) => error,
      );
      expect(failed).toBeInstanceOf(OperationError);
      expect((failed as OperationError).message).toMatch(/^cannot read the text the editor ".*" saved \((ENOENT|EISDIR)\); nothing was sent$/);
    }
  });

  describe('text saved in another encoding than UTF-8 (Notepad "Unicode", Windows-1252), read as --message-file reads', () => {
    /**
     * An editor that writes `typed` above what the file holds, saving it all as `encoding`:
     * UTF-16 with its BOM (Notepad's "Unicode", big-endian with `utf16be`), Windows-1252 or UTF-8 with a BOM.
     */
    async function savingAs(encoding: 'utf16le' | 'utf16be' | 'latin1' | 'utf8-bom', typed: string): Promise<{ command: string; hint: string }> {
      const script = join(scratch, `save-${encoding}.cjs`);
      await writeFile(
        script,
        `const fs = require('node:fs');
const file = process.argv.at(-1);
const text = ${JSON.stringify(typed)} + fs.readFileSync(file, 'utf8');
const le = Buffer.from('\\ufeff' + text, 'utf16le');
const bytes = { utf16le: le, utf16be: Buffer.from(le).swap16(), latin1: Buffer.from(text, 'latin1'), 'utf8-bom': Buffer.from('\\ufeff' + text) }[${JSON.stringify(encoding)}];
fs.writeFileSync(file, bytes);
`,
      );
      return editing(`${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`);
    }
    const refusal = (editor: { command: string; hint: string }) => editText({ message: 'Reply to #7', env: {}, editor }).catch((error: unknown) => error);

    it('refuses UTF-16 (exit 2, nothing returned to send), the text cut at the scissors kept converted for a draft', async () => {
      for (const encoding of ['utf16le', 'utf16be'] as const) {
        const editor = await savingAs(encoding, 'Written in notepad\nCafé\n');
        const error = await refusal(editor);
        expect(error).toBeInstanceOf(EditorFailedError);
        expect(exitCodeOf(error)).toBe(2);
        expect((error as EditorFailedError).message).toBe(`the text the editor ${editor.command} saved is UTF-16 text, not UTF-8; nothing was sent`);
        expect((error as EditorFailedError).hint).toBe('set the editor to save UTF-8 text');
        // The scissors block is recognised in the converted text: never kept, never sent.
        expect((error as EditorFailedError).typed).toBe('Written in notepad\nCafé');
      }
    });

    it('refuses Windows-1252 as --message-file does, naming the first byte that is not UTF-8', async () => {
      const editor = await savingAs('latin1', 'caf\u00e9\n');
      const error = await refusal(editor);
      expect(exitCodeOf(error)).toBe(2);
      expect((error as EditorFailedError).message).toBe(
        `the text the editor ${editor.command} saved is not UTF-8 text: byte 0xE9 on line 1, column 4; nothing was sent`,
      );
      expect((error as EditorFailedError).typed).toBe('café');
    });

    it('keeps a Windows-1252 euro sign and quotes (0x80, 0x93, 0x94) as such, not as the C1 controls Node 20 decodes them to', async () => {
      // Written as Latin-1, U+0080, U+0093 and U+0094 are the bytes 0x80, 0x93 and 0x94.
      const error = await refusal(await savingAs('latin1', '10\u0080 for the \u0093caf\u00e9\u0094\n'));
      expect((error as EditorFailedError).message).toContain('not UTF-8 text: byte 0x80 on line 1, column 3');
      expect((error as EditorFailedError).typed).toBe('10\u20ac for the \u201ccaf\u00e9\u201d');
    });

    it('keeps nothing when nothing was typed: only the encoding changed', async () => {
      const error = await refusal(await savingAs('utf16le', ''));
      expect(error).toBeInstanceOf(UsageError);
      expect(error).not.toBeInstanceOf(EditorFailedError);
    });

    it('drops a BOM, as it is dropped from files', async () => {
      expect(await editText({ message: 'm', env: {}, editor: await savingAs('utf8-bom', 'Written in notepad\n') })).toBe('Written in notepad');
    });
  });

  it('runs $VISUAL before $EDITOR', async () => {
    const text = await editText({ message: 'm', env: { PATH: process.env.PATH, VISUAL: writing('from visual'), EDITOR: writing('from editor') } });
    expect(text).toBe('from visual');
  });
});

describe('editorCommand', () => {
  it('prefers VISUAL, then EDITOR, then vi', () => {
    expect(editorCommand({ VISUAL: 'code --wait', EDITOR: 'nano' })).toBe('code --wait');
    expect(editorCommand({ VISUAL: ' ', EDITOR: 'nano' })).toBe('nano');
    expect(editorCommand({})).toBe('vi');
  });
});

describe('editedText', () => {
  const instructions = instructionLines('Reply to #1031: Mouse');

  it('keeps what is above the scissors, # lines, inner blank lines and indentation included, without the blank lines around it', () => {
    expect(editedText(`\n\n  indented\r\n\n#1234\n# heading\n\n${instructions.join('\n')}\nbelow\n`, instructions)).toBe('  indented\n\n#1234\n# heading');
  });

  it('cuts at the scissors line wherever it was moved, its trailing spaces aside', () => {
    expect(editedText(`Thanks\n${SCISSORS}  \nnot sent\n\n${instructions.join('\n')}\n`, instructions)).toBe('Thanks');
  });

  it('with the scissors line deleted, drops only the lines tkt wrote: the instructions are never sent, # lines of the text are', () => {
    const rest = instructions.filter((line) => line !== SCISSORS);
    expect(rest).toContain('# Reply to #1031: Mouse');
    expect(editedText(`#1234 again\n# What we did\n\n${rest.join('\n')}\n`, instructions)).toBe('#1234 again\n# What we did');
  });

  it('is empty when only the instructions are left, so the message aborts', () => {
    expect(editedText(`\n\n${instructions.join('\n')}\n`, instructions)).toBe('');
    expect(editedText(`\n${instructions.slice(1).join('\n')}\n`, instructions)).toBe('');
  });
});

describe('the inquirer prompter editor', () => {
  it('uses $EDITOR from the env it was given and says it is waiting', async () => {
    const stderr = createCollector();
    const prompter = createInquirerPrompter({ stdin: new PassThrough(), stderr: stderr.stream, env: { PATH: process.env.PATH, EDITOR: writing('Body') } });
    expect(await prompter.editor({ message: 'Description' })).toBe('Body');
    expect(stderr.text()).toContain('Description (waiting for your editor');
  });

  it('ends the waiting line before the editor runs, so what its shell says (not found) is on a line of its own; erased after a success', async () => {
    const failing = createCollector();
    const editor = createInquirerPrompter({
      stdin: new PassThrough(),
      stderr: failing.stream,
      env: { PATH: process.env.PATH, EDITOR: 'no-such-editor-tkt' },
      cursorControl: true,
    });
    await expect(editor.editor({ message: 'Description' })).rejects.toBeInstanceOf(OperationError);
    expect(failing.text()).toBe('Description (waiting for your editor to close the file...)\n');
    const done = createCollector();
    const writer = createInquirerPrompter({
      stdin: new PassThrough(),
      stderr: done.stream,
      env: { PATH: process.env.PATH, EDITOR: writing('Body') },
      cursorControl: true,
    });
    expect(await writer.editor({ message: 'Description' })).toBe('Body');
    expect(done.text()).toBe('Description (waiting for your editor to close the file...)\n\x1b[A\r\x1b[K');
  });
});
