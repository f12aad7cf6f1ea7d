// The attach folder's edge cases, where realpath alone gives no answer: files that do not exist,
// links that lead nowhere or round in a loop, and /dev/stdin (a link to /proc's pipe:[N] or a
// terminal). The rows' messages and the whole run are tested with the CLI (create-from.test.ts).
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { attachFolder, confineAttachments, type AttachFolder } from '../../src/bulk/attach-folder.js';
import { useTempDir } from '../helpers/sandbox-state.js';

let dir: string;
useTempDir('tkt-attach-folder-', (path) => (dir = path));

describe('confineAttachments', () => {
  let folder: AttachFolder;
  let rows: string;

  beforeAll(async () => {
    rows = join(dir, 'rows');
    await mkdir(rows);
    await mkdir(join(dir, 'config'));
    await writeFile(join(rows, 'a.txt'), 'a\n');
    await writeFile(join(dir, 'outside.txt'), 'o\n');
    folder = await attachFolder(undefined, rows, join(dir, 'config'));
  });

  const confined = (cells: string | string[]) => confineAttachments(cells, folder);

  it('admits files of the folder, a link between two of them, and a missing one (its read then fails, naming it)', async () => {
    await symlink(join(rows, 'a.txt'), join(rows, 'alias.txt'));
    expect(await confined(['a.txt', join(rows, 'a.txt'), 'alias.txt#b.txt', 'missing.txt', 'sub/missing.txt'])).toEqual({
      admitted: ['a.txt', join(rows, 'a.txt'), 'alias.txt#b.txt', 'missing.txt', 'sub/missing.txt'],
      problems: [],
      outside: false,
    });
  });

  it('refuses a missing file outside, and a link leading to one', async () => {
    await symlink(join(dir, 'nowhere', 'x.txt'), join(rows, 'dangling.txt'));
    const { admitted, problems, outside } = await confined([join(dir, 'nowhere', 'x.txt'), 'dangling.txt']);
    expect({ admitted, outside }).toEqual({ admitted: [], outside: true });
    expect(problems).toEqual([
      `attach: ${join(dir, 'nowhere', 'x.txt')} is outside ${rows} (rows attach only files in that folder)`,
      `attach: dangling.txt leads to ${join(dir, 'nowhere', 'x.txt')}, outside ${rows} (rows attach only files in that folder)`,
    ]);
  });

  it('refuses a link to /dev/stdin, whatever stdin is: a pipe, a terminal or /dev/null are none of the folder', async () => {
    await symlink('/dev/stdin', join(rows, 'stdin.log'));
    const { admitted, problems } = await confined(['stdin.log', '/dev/stdin', '/dev/fd/0']);
    expect(admitted).toEqual([]);
    expect(problems).toEqual([
      expect.stringMatching(/^attach: stdin\.log leads to \/\S+, outside /),
      `attach: /dev/stdin is outside ${rows} (rows attach only files in that folder)`,
      `attach: /dev/fd/0 is outside ${rows} (rows attach only files in that folder)`,
    ]);
  });

  it('ends a loop of links (the read then fails, naming it)', async () => {
    await symlink(join(rows, 'loop-b'), join(rows, 'loop-a'));
    await symlink(join(rows, 'loop-a'), join(rows, 'loop-b'));
    expect((await confined('loop-a')).admitted).toEqual(['loop-a']);
  });

  it("refuses tkt's config folder before the folder's bounds, a link into it too", async () => {
    await writeFile(join(dir, 'config', 'config.json'), '{}\n');
    await symlink(join(dir, 'config', 'config.json'), join(rows, 'settings.json'));
    const wide = await attachFolder(dir, rows, join(dir, 'config'));
    const { problems, outside } = await confineAttachments(['config/config.json', join(rows, 'settings.json'), 'outside.txt'], wide);
    expect(outside).toBe(false);
    expect(problems).toEqual([
      "attach: config/config.json is in tkt's config folder (tokens and settings are never attached)",
      `attach: ${join(rows, 'settings.json')} is in tkt's config folder (tokens and settings are never attached)`,
    ]);
  });
});
