// The programs tkt starts for the user (editor, pager, browser) get no tkt secret: a GUI browser
// lives on after tkt, holding whatever it was given (README, Environment and files).
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { openInBrowser } from '../../src/desk/browser.js';
import { pageText } from '../../src/output/pager.js';
import { editText } from '../../src/prompts/editor.js';

const SECRETS = { TKT_TOKEN: 'token-secret', TKT_PASSWORD: 'password-secret' };
const env = { PATH: process.env.PATH, KEPT: 'kept', ...SECRETS };

let dir: string;
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'tkt-child-env-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

const expectNoSecret = (dumped: string) => {
  expect(dumped).toContain('KEPT=kept');
  expect(dumped).not.toMatch(/TKT_TOKEN|TKT_PASSWORD|secret/);
};

it('the editor gets neither TKT_TOKEN nor TKT_PASSWORD', async () => {
  const dump = join(dir, 'env');
  await editText({ message: 'M', default: 'text', env, editor: { command: `env > "${dump}"; touch -d 2001-01-01`, hint: '' } });
  expectNoSecret(await readFile(dump, 'utf8'));
});

it('the pager gets neither', async () => {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  // Undefined: the pager ran to its end (no trouble).
  expect(await pageText('text\n', 'env', out, env)).toBeUndefined();
  expectNoSecret(Buffer.concat(chunks).toString());
});

it('the browser gets neither', async () => {
  const dump = join(dir, 'env');
  const script = join(dir, 'browser.sh');
  await writeFile(script, `#!/bin/sh\nenv > "${dump}.tmp" && mv "${dump}.tmp" "${dump}"\n`);
  await chmod(script, 0o755);
  const io = { stdinIsTTY: false, stdoutIsTTY: false } as Parameters<typeof openInBrowser>[1]['io'];
  expect(await openInBrowser('https://example.com/1', { env: { ...env, BROWSER: script }, io, lendTerminal: (run) => run() })).toBe(true);
  // Started on its own: the call returns before the browser has run.
  expectNoSecret(await vi.waitFor(() => readFile(dump, 'utf8'), { timeout: 5000, interval: 20 }));
});
