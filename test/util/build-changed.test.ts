// What a run says when tkt's own files changed under it (an upgrade): the command bundles' error
// (src/bundle-loader.ts, tested through the CLI in test/bundle-loader.test.ts) and the full CLI's
// chunk that is gone, as Node's import reports it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILD_CHANGED, buildChangedLines } from '../../src/util/build-changed.js';

describe('buildChangedLines', () => {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tkt-build-changed-'));
    mkdirSync(path.join(dir, 'dist', 'chunks'), { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('tells a chunk of the full CLI that is gone as a change under the run', async () => {
    const main = path.join(dir, 'dist', 'main.js');
    writeFileSync(main, "export const load = () => import('./chunks/triage-ABCDEFGH.js');\n");
    const { load } = (await import(pathToFileURL(main).href)) as { load: () => Promise<unknown> };
    const error = await load().then(
      () => undefined,
      (failure: unknown) => failure,
    );

    expect(buildChangedLines(error)).toEqual([
      expect.stringMatching(/^error: tkt's files changed while it ran \(an upgrade\?\): Cannot find module '.*[\\/]dist[\\/]chunks[\\/]triage-ABCDEFGH\.js'/),
      'hint: run the command again (if it says this again, reinstall tkt)',
    ]);
  });

  it('tells the bundles’ own error as it is, and says nothing of any other failure', () => {
    const changed = Object.assign(new Error("tkt's files changed while it ran (an upgrade?): /x/dist/commands/show.cjs is gone"), { code: BUILD_CHANGED });
    const otherModule = Object.assign(new Error("Cannot find module '/home/me/project/lib.js'"), { code: 'ERR_MODULE_NOT_FOUND' });

    expect(buildChangedLines(changed)?.[0]).toBe(`error: ${changed.message}`);
    expect(buildChangedLines(otherModule)).toBeUndefined();
    expect(buildChangedLines(new Error('connection refused'))).toBeUndefined();
    expect(buildChangedLines('text')).toBeUndefined();
  });
});
