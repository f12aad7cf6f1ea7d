// A ProcessLike over in-memory streams whose TTY flags the test chooses.
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { ProcessLike, StopSignal } from '../../src/process-host.js';

export interface ProcessSignals extends Pick<ProcessLike, 'on' | 'off' | 'exit'> {
  /** Delivers a signal to the run, as the kernel would. */
  send(signal: StopSignal): void;
  /** The codes runCli asked to exit with at once. */
  exits: number[];
}

/** Signal handling of a test's process stand-in: nothing reaches the test runner's own. */
export function processSignals(): ProcessSignals {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  return {
    on: (event, listener) => emitter.on(event, listener),
    off: (event, listener) => emitter.off(event, listener),
    exit: (code) => void exits.push(code),
    send: (signal) => void emitter.emit(signal),
    exits,
  };
}

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
    ...processSignals(),
  };
}
