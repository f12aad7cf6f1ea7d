// The one terminal size (README: "Where people really run it"): a size of 0 is unknown, and an
// unknown size comes from $COLUMNS/$LINES, else 80x24.
import { describe, expect, it } from 'vitest';
import { readGlobals } from '../../src/config/globals.js';
import { createIO } from '../../src/process-host.js';
import { terminalSize } from '../../src/output/terminal-size.js';
import { fakeProcess } from '../cli/fake-process.js';

describe('terminalSize', () => {
  it('is the size the terminal reports, whatever $COLUMNS says', () => {
    expect(terminalSize([{ columns: 132, rows: 43 }], { COLUMNS: '60', LINES: '10' })).toEqual({ columns: 132, rows: 43, rowsReported: true });
  });

  it('takes a size of 0 as unknown: $COLUMNS and $LINES, else 80x24', () => {
    const pty = { columns: 0, rows: 0 };
    expect(terminalSize([pty], { COLUMNS: '120', LINES: '50' })).toEqual({ columns: 120, rows: 50, rowsReported: false });
    expect(terminalSize([pty], {})).toEqual({ columns: 80, rows: 24, rowsReported: false });
    expect(terminalSize([{}], { COLUMNS: '0', LINES: 'many' })).toEqual({ columns: 80, rows: 24, rowsReported: false });
  });

  it('reads the first stream that knows: stderr when stdout is piped', () => {
    expect(terminalSize([{}, { columns: 100, rows: 30 }], {})).toEqual({ columns: 100, rows: 30, rowsReported: true });
  });
});

describe('IO.size', () => {
  it('follows the terminal: read when asked, not when the run started', () => {
    const proc = fakeProcess({ stdout: true }, { COLUMNS: '120' });
    Object.assign(proc.stdout, { columns: 0, rows: 0 });
    const io = createIO(proc, readGlobals({}));
    expect(io.size()).toEqual({ columns: 120, rows: 24, rowsReported: false });
    Object.assign(proc.stdout, { columns: 90, rows: 30 });
    expect(io.size()).toEqual({ columns: 90, rows: 30, rowsReported: true });
  });
});
