// Colour follows IO.color (stderr) or IO.stdoutColor (stdout), decided once per stream in
// cli.ts from its TTY, NO_COLOR, FORCE_COLOR and --no-color; chalk's own detection would
// disagree when piped.
import { Chalk } from 'chalk';

export type Paint = (text: string) => string;

export interface Style {
  bold: Paint;
  dim: Paint;
  red: Paint;
  green: Paint;
  yellow: Paint;
  blue: Paint;
  cyan: Paint;
  /** Swapped foreground and background: the highlighted row of a full-screen list. */
  inverse: Paint;
}

/** Paint functions that are the identity when `color` is false. */
export function createStyle(color: boolean): Style {
  // Level 1 (16 colours) renders on every colour terminal, including old Windows consoles.
  const chalk = new Chalk({ level: color ? 1 : 0 });
  return {
    bold: (text) => chalk.bold(text),
    dim: (text) => chalk.dim(text),
    red: (text) => chalk.red(text),
    green: (text) => chalk.green(text),
    yellow: (text) => chalk.yellow(text),
    blue: (text) => chalk.blue(text),
    cyan: (text) => chalk.cyan(text),
    inverse: (text) => chalk.inverse(text),
  };
}
