// Arguments that are not UTF-8 (README: Text values): Node decodes the command line as UTF-8 with
// U+FFFD for each byte that is not, so `tkt reply 1013 --message "$(cat latin1.txt)"` from a legacy
// script once sent its accents as U+FFFD, where the same bytes in a file or on stdin were refused.
// Now such an argument is exit 2 before any request; a U+FFFD typed as such (EF BF BD) is sent.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { argumentBytes, assertUtf8Arguments, optionOf } from '../../src/cmdutil/argument-encoding.js';
import { UsageError } from '../../src/errors.js';
import { argvTable } from '../helpers/program.js';
import type { Harness } from '../helpers/harness.js';
import { sendsNothing, unusedTicket, useHarness, useTempDir } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({}, (harness) => (h = harness));
let dir: string;
useTempDir('tkt-argument-encoding-', (made) => (dir = made));

const bin = fileURLToPath(new URL('../../bin/tkt.js', import.meta.url));
const conversations = (id: number) => h.sandbox.state.conversations.filter((c) => c.ticketId === id);

/**
 * The built CLI (`npm run build`) run with `argv`, each argument made bytes by the shell's printf
 * (`Caf\\351` is "Caf" and the byte 0xE9): Node's spawn takes its arguments as strings, which it
 * sends as UTF-8, and only a program given bytes can give a byte that is not.
 */
function runWithBytes(argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // The `_` around it: printf takes no format that starts with `-`, and $(...) drops trailing line breaks.
  const script =
    'node=$1 bin=$2; shift 2; for arg; do shift; value=$(printf "_${arg}_"); value=${value#_}; set -- "$@" "${value%_}"; done; exec "$node" "$bin" "$@"';
  const child = spawn('sh', ['-c', script, 'sh', process.execPath, bin, ...argv], {
    env: { PATH: process.env.PATH ?? '', ...h.env },
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('an argument that is not UTF-8, in the built CLI', () => {
  it('is exit 2 before any request, naming its option, where its first such byte is, and how to convert it', async () => {
    const ticket = unusedTicket(h);
    const result = await sendsNothing(h, () => runWithBytes(['reply', String(ticket.id), '--message', "Merci, c'est r\\351gl\\351"]));
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      'error: --message is not UTF-8 text: byte 0xE9 on line 1, column 15\n' +
        'hint: convert it on its way in: tkt ... --message "$(... | iconv -f WINDOWS-1252 -t UTF-8)"\n',
    );
    expect(conversations(ticket.id)).toEqual([]);
  });

  it('sends a U+FFFD typed as such (its UTF-8 bytes EF BF BD)', async () => {
    const ticket = unusedTicket(h);
    const result = await runWithBytes(['reply', String(ticket.id), '--message=Caf\\357\\277\\275 au lait']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(conversations(ticket.id).at(-1)?.message).toBe('Caf\uFFFD au lait');
  });

  it("is named by its place when it is no option's value, and a file name is told as such", async () => {
    const ticket = unusedTicket(h);
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), Buffer.from('caf\u00e9.txt', 'latin1')]), 'menu\n');
    const result = await sendsNothing(h, () => runWithBytes(['attach', String(ticket.id), '--dry-run', 'caf\\351.txt']));
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      'error: argument 4 is not UTF-8 text: byte 0xE9 on line 1, column 4\n' +
        'hint: it names a file whose name is not UTF-8, which tkt cannot open: give the file a UTF-8 name\n',
    );
  });

  it('is refused as typed when an alias takes it, before the alias is expanded', async () => {
    const ticket = unusedTicket(h);
    expect((await h.cli(['alias', 'set', 'thanks', 'reply $1 --message $2'])).code).toBe(0);
    const result = await sendsNothing(h, () => runWithBytes(['thanks', String(ticket.id), 'r\\351gl\\351\\n']));
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      'error: argument 3 is not UTF-8 text: byte 0xE9 on line 1, column 2\n' +
        'hint: convert it on its way in: tkt ... "$(... | iconv -f WINDOWS-1252 -t UTF-8)"\n',
    );
    // A U+FFFD typed as such goes through the alias as any text.
    expect((await runWithBytes(['thanks', String(ticket.id), '\\357\\277\\275 noted'])).code).toBe(0);
    expect(conversations(ticket.id).at(-1)?.message).toBe('\uFFFD noted');
  });
});

/** A command line as the system keeps it: each word's bytes, then a NUL. */
const commandLine = (...words: (string | Buffer)[]) => Buffer.concat(words.flatMap((word) => [Buffer.from(word), Buffer.alloc(1)]));
const latin1 = (text: string) => Buffer.from(text, 'latin1');

describe('the bytes of the arguments', () => {
  it('are the end of the command line, past node and its options', () => {
    const line = commandLine('/usr/bin/node', '--enable-source-maps', '/opt/tkt/bin/tkt.js', 'reply', '', latin1('caf\u00e9'));
    expect(argumentBytes(['reply', '', 'caf\uFFFD'], line)).toEqual([Buffer.from('reply'), Buffer.alloc(0), latin1('caf\u00e9')]);
  });

  it("are unknown where the command line does not end with them (another process's, one cut short)", () => {
    expect(argumentBytes(['reply', 'caf\uFFFD'], commandLine('node', 'vitest', 'run'))).toBeUndefined();
    expect(argumentBytes(['a', 'b', 'c'], commandLine('b', 'c'))).toBeUndefined();
    expect(() => assertUtf8Arguments(['reply', '1', '--message', 'caf\uFFFD'], argvTable, commandLine('node', 'vitest'))).not.toThrow();
    expect(() => assertUtf8Arguments(['reply', '1', '--message', 'caf\uFFFD'], argvTable, undefined)).not.toThrow();
  });
});

describe('an argument that is not UTF-8', () => {
  const refusal = (argv: string[], ...bytes: (string | Buffer)[]) => {
    try {
      assertUtf8Arguments(argv, argvTable, commandLine('node', 'tkt.js', ...bytes));
      return undefined;
    } catch (error) {
      return error instanceof UsageError ? [error.message, error.hint] : error;
    }
  };

  it('is named by the option it is the value of, as commander reads the line', () => {
    expect(optionOf(['reply', '1', '--message', 'x'], 3, argvTable)).toBe('--message');
    expect(optionOf(['reply', '1', '--message=x'], 2, argvTable)).toBe('--message');
    expect(optionOf(['-q', 'reply', '1', '-m', 'x'], 4)).toBe('-m');
    // A flag takes no value: the word after it is an argument of its own.
    expect(optionOf(['attach', '1', '--dry-run', 'x'], 3, argvTable)).toBeUndefined();
    expect(optionOf(['reply', '1', '--', '--message', 'x'], 4, argvTable)).toBeUndefined();
    // A value that looks like an option is still the value (--message -q sends "-q").
    expect(optionOf(['reply', '1', '--message', '-q', 'x'], 4, argvTable)).toBeUndefined();
  });

  it('is refused with where its first such byte is and how to convert it, UTF-8 cut short told from Windows-1252', () => {
    expect(refusal(['-q', 'reply', '1', '--message', 'caf\uFFFD'], '-q', 'reply', '1', '--message', latin1('caf\u00e9'))).toEqual([
      '--message is not UTF-8 text: byte 0xE9 on line 1, column 4',
      'convert it on its way in: tkt ... --message "$(... | iconv -f WINDOWS-1252 -t UTF-8)"',
    ]);
    // `tail -c` cut a line of the log in its last character: an é before the bad byte says UTF-8.
    const cut = Buffer.from('a\nb \u00e9\u00e9').subarray(0, -1);
    expect(refusal(['create', '--description', 'a\nb \u00e9\uFFFD'], 'create', '--description', cut)).toEqual([
      '--description is not UTF-8 text: byte 0xC3 on line 2, column 4',
      'it is UTF-8 with broken bytes (cut short?): drop them on its way in: tkt ... --description "$(... | iconv -f UTF-8 -t UTF-8 -c)"',
    ]);
  });

  it('holding U+FFFD typed as such (EF BF BD) passes', () => {
    expect(refusal(['reply', '1', '--message', 'caf\uFFFD'], 'reply', '1', '--message', 'caf\uFFFD')).toBeUndefined();
  });

  it("is never described in a secret's value: login refuses --password whatever it holds", () => {
    expect(refusal(['login', '--password', 'caf\uFFFD'], 'login', '--password', latin1('caf\u00e9'))).toBeUndefined();
    expect(refusal(['login', '--password=caf\uFFFD'], 'login', latin1('--password=caf\u00e9'))).toBeUndefined();
  });
});
