import { describe, expect, it } from 'vitest';
import { createStyle } from '../../src/output/style.js';

describe('createStyle', () => {
  it('returns text untouched when colour is off, whatever the terminal', () => {
    const style = createStyle(false);
    expect(style.red('overdue')).toBe('overdue');
    expect(style.bold('Title')).toBe('Title');
  });

  it('adds ANSI colour codes when colour is on, even without a TTY', () => {
    const style = createStyle(true);
    expect(style.red('overdue')).toBe('\u001b[31moverdue\u001b[39m');
    expect(style.bold('Title')).toBe('\u001b[1mTitle\u001b[22m');
    expect(style.green('ok')).toContain('\u001b[32m');
  });
});
