// Text the completion scripts of every shell are written with.
import type { OptionSpec } from './spec.js';

export const flagsOf = (option: OptionSpec) => [option.short, option.long].filter((flag): flag is string => flag !== undefined);

/** A word list safe inside single quotes in every shell we target. */
export function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** One description line: no line breaks, no quotes trouble. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
