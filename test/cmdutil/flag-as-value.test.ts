import { describe, expect, it } from 'vitest';
import { optionTakenAsValue, type OptionFlags } from '../../src/cmdutil/flag-as-value.js';

const OPTIONS: OptionFlags[] = [
  { short: '-m', long: '--message', takesValue: true },
  { long: '--dry-run', takesValue: false },
  { short: '-q', long: '--quiet', takesValue: false },
  { long: '--timeout', takesValue: true },
];

describe('optionTakenAsValue', () => {
  it('finds a value option given a long option as the next word, or its --name=value form, by its long or short flag', () => {
    expect(optionTakenAsValue(['reply', '7', '--message', '--dry-run'], OPTIONS)).toEqual({ option: '--message', value: '--dry-run' });
    expect(optionTakenAsValue(['reply', '7', '-m', '--timeout=5'], OPTIONS)).toEqual({ option: '-m', value: '--timeout=5' });
  });

  // `--dedup-key $KEY --help` with KEY unset ran the command with the key "--help".
  it("counts --help, commander's own on every command, among the long options", () => {
    expect(optionTakenAsValue(['reply', '7', '--message', '--help'], OPTIONS)).toEqual({ option: '--message', value: '--help' });
  });

  it('leaves values that are text: a short flag, an unknown long word, the --name=value form, anything after --', () => {
    for (const argv of [
      ['reply', '7', '--message', '-q'],
      ['reply', '7', '--message', '--not-an-option'],
      ['reply', '7', '--message=--dry-run'],
      ['reply', '7', '--', '--message', '--dry-run'],
      ['reply', '7', '--quiet', '--dry-run'],
      ['reply', '7', '--message', 'hello', '--dry-run'],
    ]) {
      expect(optionTakenAsValue(argv, OPTIONS), argv.join(' ')).toBeUndefined();
    }
  });

  it('reads a value once: a value that is a flag taking a value does not take the word after it', () => {
    // The message is "-m"; --dry-run after it is an option of its own.
    expect(optionTakenAsValue(['reply', '7', '--message', '-m', '--dry-run'], OPTIONS)).toBeUndefined();
  });
});
