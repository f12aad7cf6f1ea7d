// Where triage reads the terminal's size (IO.size): once at the start, then at every resize.
import type { TerminalSize } from '../output/terminal-size.js';

interface ResizingOutput {
  on(event: 'resize', listener: () => void): unknown;
  off(event: 'resize', listener: () => void): unknown;
}

/** Calls `resized` with the size `read` gives after each resize of `stdout`; returns the way to stop. */
export function watchTerminalSize(stdout: ResizingOutput, read: () => TerminalSize, resized: (size: TerminalSize) => void): () => void {
  const listener = () => resized(read());
  stdout.on('resize', listener);
  return () => void stdout.off('resize', listener);
}
