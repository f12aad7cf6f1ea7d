// Tests that run tkt as another user, with setpriv: only root may take another UID. CI runs as root
// in its container (.ci/run installs util-linux): there the tests must run; elsewhere they skip, loudly.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { skipWithout } from './tools.js';
import { BIN } from './terminal.js';

/** Not in /etc/passwd here, nor on CI's image. */
export const OTHER_UID = '54321';

/** True when the tests of `file` should skip: no setpriv, or not root, and this is not CI. */
export function skipWithoutSetpriv(file: string): boolean {
  if (skipWithout(['setpriv'], file)) return true;
  if (process.getuid?.() === 0) return false;
  if (process.env.CI) throw new Error(`${file} runs tkt as another user with setpriv, which needs root`);
  console.warn(`SKIPPED ${file}: not root, so setpriv cannot take another user`);
  return true;
}

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** The bin with `args`, as user OTHER_UID, with only PATH and `env` in its environment, `stdin` its whole input, in `cwd` (else this process's). */
export async function asOtherUser(args: string[], env: Record<string, string>, stdin = '', cwd?: string): Promise<Ran> {
  const argv = ['--reuid', OTHER_UID, '--regid', OTHER_UID, '--clear-groups', process.execPath, BIN, ...args];
  try {
    const running = promisify(execFile)('setpriv', argv, { env: { PATH: process.env.PATH ?? '', ...env }, cwd });
    running.child.stdin?.end(stdin);
    const { stdout, stderr } = await running;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout: string; stderr: string };
    return { code: failed.code ?? -1, stdout: failed.stdout, stderr: failed.stderr };
  }
}
