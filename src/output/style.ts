// Colour follows IO.color (stderr) or IO.stdoutColor (stdout), decided once per stream in
// process-host.ts from its TTY, TERM=dumb, NO_COLOR, FORCE_COLOR and --no-color (a terminal library's own detection
// would disagree when piped); the codes are chalk's at its level 1.
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

/**
 * A painter for one SGR attribute, writing what chalk writes at its level 1 (16 colours): the
 * same attribute's end code inside the text re-opens it (a nested style ends there, this one
 * goes on), and each line break is wrapped in end and start (a terminal would carry the
 * colour into the next line's margin). chalk itself costs a few milliseconds of every run that
 * prints, in its terminal detection, which tkt does not use.
 */
function painter(start: number, end: number): Paint {
  const on = `\u001b[${start}m`;
  const off = `\u001b[${end}m`;
  return (text) => {
    if (text === '') return text;
    const reopened = text.includes('\u001b') ? text.replaceAll(off, off + on) : text;
    return on + reopened.replace(/\r?\n/g, (lineBreak) => off + lineBreak + on) + off;
  };
}

const plain: Paint = (text) => text;

const PAINTED: Style = {
  bold: painter(1, 22),
  dim: painter(2, 22),
  red: painter(31, 39),
  green: painter(32, 39),
  yellow: painter(33, 39),
  blue: painter(34, 39),
  cyan: painter(36, 39),
  inverse: painter(7, 27),
};

const PLAIN: Style = { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, blue: plain, cyan: plain, inverse: plain };

/** Paint functions that are the identity when `color` is false. */
export function createStyle(color: boolean): Style {
  // Level 1 (16 colours) renders on every colour terminal, including old Windows consoles.
  return color ? PAINTED : PLAIN;
}
