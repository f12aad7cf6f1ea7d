import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/errors.js';
import { openInput } from '../../src/util/input-file.js';
import { useTempDirs } from '../config/temp-dir.js';

const tempDir = useTempDirs();

describe('a FIFO read until a signal', () => {
  it('stopped before its reader began: no unhandled error, and the read that follows ends with InterruptedError', async () => {
    // An upload opened the pipe, then awaited its private copy's file; a SIGTERM then destroyed
    // the stream with nobody listening, and Node ended tkt on the unhandled 'error' (exit 1).
    const fifo = join(tempDir(), 'build.log');
    execFileSync('mkfifo', [fifo]);
    // A writer that stays open and quiet.
    const writer = spawn('sh', ['-c', 'exec 3>"$0"; exec sleep 30', fifo], { stdio: 'ignore' });
    try {
      const controller = new AbortController();
      const stream = await openInput(fifo, controller.signal);
      controller.abort();
      // The turns in which the destroy's 'error' is emitted.
      await nextTurn();
      await nextTurn();
      const read = async () => {
        for await (const _chunk of stream) {
          // Nothing comes.
        }
      };
      await expect(read()).rejects.toBeInstanceOf(InterruptedError);
    } finally {
      writer.kill();
    }
  });
});
