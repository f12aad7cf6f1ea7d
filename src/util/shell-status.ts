/** What sh's exit status says when it could not run the command it was given (126, 127), by status. */
export const SHELL_COULD_NOT_RUN: Readonly<Record<number, string>> = { 126: 'the shell could not run it', 127: 'the shell found no such command' };
