// A ProcessLike over in-memory streams whose TTY flags the test chooses.
import { PassThrough } from 'node:stream';
import type { ProcessLike } from '../../src/cli.js';

export interface Terminals {
  stdin?: boolean;
  stdout?: boolean;
  stderr?: boolean;
}

export function fakeProcess(terminals: Terminals = {}, env: Record<string, string> = {}): ProcessLike {
  const stream = (isTTY: boolean) => Object.assign(new PassThrough(), { isTTY });
  return {
    stdin: stream(terminals.stdin ?? false),
    stdout: stream(terminals.stdout ?? false),
    stderr: stream(terminals.stderr ?? false),
    env,
  };
}
