import { accessSync, constants, statSync } from 'node:fs';
import { quotedValue, shellWord } from './shell-word.js';

/** What sh's exit status says when it could not run the command it was given (126, 127), by status. */
export const SHELL_COULD_NOT_RUN: Readonly<Record<number, string>> = { 126: 'the shell could not run it', 127: 'the shell found no such command' };

/**
 * A command line (an editor, a pager, a browser) as a message names it: in double quotes, or as
 * it is when it starts with a quote of its own (`"/opt/My Editor/ed"`), never with doubled quotes.
 */
export const commandNamed = (command: string): string => (/^["']/.test(command) ? command : `"${command}"`);

/** Whether `file` is a file the user may run. */
export function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Whether a command line sh could not find is the path of a program with spaces in it, given
 * unquoted (`/mnt/c/Program Files/ed.exe`, as Windows users write paths): sh split it at its
 * spaces and looked for its first word. Quoted, it runs.
 */
export const isUnquotedPath = (command: string): boolean => /\s/.test(command.trim()) && isExecutableFile(command.trim());

/**
 * The hint for a command line that isUnquotedPath (the editor, the pager, the browser): `where`
 * it was set ("$EDITOR", "the pager setting") is a path with spaces; `setIt` gives the line that
 * sets it quoted. Quoting is the fix there, not another program.
 */
export function unquotedPathHint(command: string, where: string, setIt: (quoted: string) => string): string {
  // The path in double quotes for sh, the whole in single quotes for the shell it is typed into.
  return `${where} is a path with spaces, which the shell splits: quote it: ${setIt(shellWord(quotedValue(command.trim())))}`;
}

/** unquotedPathHint for a command line set in the variable `variable` (EDITOR, PAGER, BROWSER). */
export const unquotedVariableHint = (variable: string, command: string): string =>
  unquotedPathHint(command, `$${variable}`, (quoted) => `export ${variable}=${quoted}`);
