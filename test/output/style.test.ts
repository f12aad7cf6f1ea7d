import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { createStyle, type Style } from '../../src/output/style.js';

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

  it('writes what chalk writes at level 1, nested styles and line breaks included', () => {
    const style = createStyle(true);
    const chalk = new Chalk({ level: 1 });
    const texts = [
      'plain',
      '',
      'two\nlines',
      'crlf\r\nlines\n',
      '\n',
      `a ${chalk.red('red')} word`,
      `a ${chalk.bold('bold')} and ${chalk.dim('dim')} word`,
      `${chalk.inverse('row')}\n${chalk.cyan('next')}`,
      'raw \u001b[39m end code',
    ];
    const names = ['bold', 'dim', 'red', 'green', 'yellow', 'blue', 'cyan', 'inverse'] as const satisfies ReadonlyArray<keyof Style>;
    for (const name of names) {
      for (const text of texts) expect(style[name](text), `${name} ${JSON.stringify(text)}`).toBe(chalk[name](text));
    }
    expect(style.bold(style.red('x'))).toBe(chalk.bold(chalk.red('x')));
  });
});
