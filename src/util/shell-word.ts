// What a hint may show bare in a shell command; anything else is single-quoted.
const SHELL_SAFE = /^[\w@%+=:,./~-]+$/;

/** One word of a command line a hint shows, quoted for a POSIX shell when it needs to be. */
export function shellWord(word: string): string {
  return SHELL_SAFE.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A value with spaces as a hint shows it: in double quotes, as people write a name; single-quoted where sh would expand it. */
export const quotedValue = (text: string): string => (/["$`\\!]/.test(text) ? shellWord(text) : `"${text}"`);
