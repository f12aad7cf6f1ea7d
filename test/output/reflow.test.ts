// Help prose laid out for a width: paragraphs re-wrapped, headings and examples kept.
import { describe, expect, it } from 'vitest';
import { reflow } from '../../src/output/reflow.js';

describe('reflow', () => {
  it('runs a sentence on when a line of its source ends with a colon', () => {
    const text = 'The service skips the others:\ntkt names each file it skipped.';

    expect(reflow(text, 80)).toBe('The service skips the others: tkt names each file it skipped.');
  });

  it('keeps a heading on a line of its own, with the prose or the examples after it', () => {
    const text = 'Settings:\nprose under the heading\n\nExamples:\n  $ tkt list';

    expect(reflow(text, 80)).toBe('Settings:\nprose under the heading\n\nExamples:\n  $ tkt list');
  });

  it('wraps a paragraph between words within the width', () => {
    expect(reflow('one two three four five', 9)).toBe('one two\nthree\nfour five');
  });
});
