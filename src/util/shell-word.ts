// What a hint may show bare in a shell command; anything else is single-quoted.
const SHELL_SAFE = /^[\w@%+=:,./~-]+$/;

/** One word of a command line a hint shows, quoted for a POSIX shell when it needs to be. */
export function shellWord(word: string): string {
  return SHELL_SAFE.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
