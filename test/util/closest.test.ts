import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../src/util/closest.js';

describe('closestName', () => {
  it('offers the nearest name within 3 edits, as a misspelt command is offered', () => {
    expect(closestName('printer-fixd', ['password-reset', 'printer-fixed'])).toBe('printer-fixed');
    expect(closestName('me', ['@me', 'none'])).toBe('@me');
    expect(closestName('welcome-aboard', ['printer-fixed'])).toBeUndefined();
    // Short words: three edits would make anything of them.
    expect(closestName('ab', ['xy'])).toBeUndefined();
    // The very name is no suggestion.
    expect(closestName('fixed', ['fixed'])).toBeUndefined();
  });

  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
