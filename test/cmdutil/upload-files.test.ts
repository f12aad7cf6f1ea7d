// PATH#NAME (src/cmdutil/upload-argument.ts, upload-files.ts): how an upload argument splits into the file read and
// the name sent, what NAME may be, and the hint's example of a name with an extension.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { uploadOf } from '../../src/cmdutil/upload-argument.js';
import { checkUploads, hasExtension, namedExample } from '../../src/cmdutil/upload-files.js';
import { useTempDir } from '../helpers/sandbox-state.js';

let dir: string;
useTempDir('tkt-upload-files-', (path) => (dir = path));

beforeAll(async () => {
  await writeFile(join(dir, 'build output'), 'log\n');
  // A file whose own name holds '#', and a folder that does.
  await writeFile(join(dir, 'notes#2.txt'), 'two\n');
  await mkdir(join(dir, 'run#7'));
  await writeFile(join(dir, 'run#7', 'log'), 'seven\n');
});

/** The error `checkUploads` throws for `arguments_`. */
async function refusal(arguments_: string[], flag = '--attach'): Promise<UsageError> {
  const error = await checkUploads(arguments_, flag).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

describe('uploadOf', () => {
  it('sends a path without # under its base name, control characters made _', () => {
    expect(uploadOf('/var/log/build.log')).toEqual({ given: '/var/log/build.log', path: '/var/log/build.log', name: 'build.log' });
    expect(uploadOf('/dev/stdin')).toMatchObject({ path: '/dev/stdin', name: 'stdin' });
    expect(uploadOf('/tmp/a\u001bb.txt')).toMatchObject({ name: 'a_b.txt' });
  });

  it('sends PATH#NAME under NAME: /dev/stdin#build.log, <(cmd)#report.txt', () => {
    expect(uploadOf('/dev/stdin#build.log')).toEqual({ given: '/dev/stdin#build.log', path: '/dev/stdin', name: 'build.log' });
    expect(uploadOf('/dev/fd/63#report.txt')).toMatchObject({ path: '/dev/fd/63', name: 'report.txt' });
    // Letters of any script, spaces, a leading dot: a name is what the user says.
    expect(uploadOf('/dev/stdin#Résumé 2.pdf')).toMatchObject({ path: '/dev/stdin', name: 'Résumé 2.pdf' });
  });

  it("splits at the last '#': a NAME holds none, a PATH may", () => {
    expect(uploadOf(`${dir}/run#7/log#seven.log`)).toEqual({ given: `${dir}/run#7/log#seven.log`, path: `${dir}/run#7/log`, name: 'seven.log' });
  });

  it("takes a file whose whole name holds '#' as that file, sent under its own name", () => {
    expect(uploadOf(join(dir, 'notes#2.txt'))).toMatchObject({ path: join(dir, 'notes#2.txt'), name: 'notes#2.txt' });
    expect(uploadOf(join(dir, 'notes#2.txt#two.txt'))).toMatchObject({ path: join(dir, 'notes#2.txt'), name: 'two.txt' });
  });

  it('finds a relative path under baseDir, the whole argument first (create --from: beside its file)', () => {
    expect(uploadOf('notes#2.txt', dir)).toMatchObject({ given: 'notes#2.txt', path: join(dir, 'notes#2.txt'), name: 'notes#2.txt' });
    expect(uploadOf('build output#build.log', dir)).toMatchObject({ path: join(dir, 'build output'), name: 'build.log' });
    expect(uploadOf('/dev/stdin#x.txt', dir)).toMatchObject({ path: '/dev/stdin', name: 'x.txt' });
  });

  it.each([
    ['/dev/stdin#', "no name after '#'"],
    ['/dev/stdin#.', '"." is no file name'],
    ['/dev/stdin#..', '".." is no file name'],
    ['/dev/stdin#logs/build.log', "the name after '#' cannot hold '/' or '\\'"],
    ['/dev/stdin#logs\\build.log', "the name after '#' cannot hold '/' or '\\'"],
    ['/dev/stdin#a\u001b[2Jb.txt', "the name after '#' cannot hold control characters"],
    ['#build.log', "no file before '#'"],
  ])('refuses %j: %s', (argument, problem) => {
    expect(uploadOf(argument).nameProblem).toBe(problem);
  });
});

describe('checkUploads', () => {
  it('returns the uploads when every name is plain and every file readable', async () => {
    const uploads = await checkUploads([join(dir, 'build output#build.log'), join(dir, 'notes#2.txt')], '--attach');
    expect(uploads.map(({ path, name }) => [path, name])).toEqual([
      [join(dir, 'build output'), 'build.log'],
      [join(dir, 'notes#2.txt'), 'notes#2.txt'],
    ]);
  });

  it('is exit 2 naming the argument whose NAME is no file name, and what PATH#NAME is', async () => {
    const error = await refusal(['/dev/stdin#logs/build.log']);
    expect(error.message).toBe("--attach /dev/stdin#logs/build.log: the name after '#' cannot hold '/' or '\\'");
    expect(error.hint).toBe("PATH#NAME sends PATH under NAME, a plain file name such as build.log (a file whose own name holds '#' is sent whole)");
  });

  it('names every bad argument at once', async () => {
    const error = await refusal(['/dev/stdin#', 'a.txt', '/dev/stdin#..'], 'attach');
    expect(error.message).toBe('attach: 2 bad file names');
    expect(error.details).toEqual(["/dev/stdin#: no name after '#'", '/dev/stdin#..: ".." is no file name']);
  });

  it('says how stdin is sent when "-" (a file of that name, not stdin) cannot be read', async () => {
    const hint = '"-" is a file of that name here, not stdin: for stdin give /dev/stdin, named as /dev/stdin#NAME (e.g. /dev/stdin#stdin.txt)';
    expect((await refusal(['-'])).hint).toBe(hint);
    const named = await refusal([join(dir, 'missing'), '-#build.log'], '-F');
    expect(named.details).toEqual([`${join(dir, 'missing')}: no such file`, '-#build.log: no such file']);
    expect(named.hint).toBe(hint);
    expect((await refusal([join(dir, 'missing')])).hint).toBeUndefined();
  });

  it('names a file it cannot read by the argument as given', async () => {
    const error = await refusal([join(dir, 'missing#build.log'), `${dir}#dir.txt`]);
    expect(error.message).toBe('--attach: cannot read 2 files');
    expect(error.details).toEqual([`${join(dir, 'missing#build.log')}: no such file`, `${dir}#dir.txt: a directory, not a file`]);
  });
});

describe('the example of a name with an extension', () => {
  it.each([
    ['stdin', false],
    ['63', false],
    ['Makefile', false],
    ['.bashrc', false],
    ['trailing.', false],
    ['build.log', true],
    ['logs.tar.gz', true],
  ])('%s has an extension: %s', (name, expected) => {
    expect(hasExtension(name)).toBe(expected);
  });

  it('keeps the path, but for the pipe of <(command), which is gone once the command has run', () => {
    expect(namedExample({ path: '/dev/stdin', name: 'stdin' })).toBe('/dev/stdin#stdin.txt');
    expect(namedExample({ path: '/dev/fd/63', name: '63' })).toBe('<(command)#63.txt');
    expect(namedExample({ path: '/proc/self/fd/12', name: '12' })).toBe('<(command)#12.txt');
    expect(namedExample({ path: '/dev/fd/0', name: '0' })).toBe('/dev/fd/0#0.txt');
    expect(namedExample({ path: "/tmp/it's here/Makefile", name: 'Makefile' })).toBe("'/tmp/it'\\''s here/Makefile'#Makefile.txt");
  });
});
