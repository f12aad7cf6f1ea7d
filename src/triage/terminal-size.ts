// Where triage reads the terminal's size: once at the start, then at every resize.
import type { TerminalSize } from './layout.js';

interface SizedOutput {
  columns?: number;
  rows?: number;
  on(event: 'resize', listener: () => void): unknown;
  off(event: 'resize', listener: () => void): unknown;
}

/** The terminal's size; 80x24 when it does not say. */
export const terminalSize = (stdout: SizedOutput): TerminalSize => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });

/** Calls `resized` with the new size after each resize; returns the way to stop. */
export function watchTerminalSize(stdout: SizedOutput, resized: (size: TerminalSize) => void): () => void {
  const listener = () => resized(terminalSize(stdout));
  stdout.on('resize', listener);
  return () => void stdout.off('resize', listener);
}
