import { describe, expect, it } from 'vitest';
import { closestWord, editDistance } from '../../src/util/closest.js';

describe('closestWord', () => {
  it('offers the nearest word, as commander offers a misspelt command', () => {
    expect(closestWord('printer-fixd', ['password-reset', 'printer-fixed'])).toBe('printer-fixed');
    expect(closestWord('me', ['@me', 'none'])).toBe('@me');
    expect(closestWord('--quite', ['--site', '--quiet'])).toBe('--quiet');
    expect(closestWord('welcome-aboard', ['printer-fixed'])).toBeUndefined();
    // Short words: a couple of edits would make anything of them.
    expect(closestWord('ab', ['xy'])).toBeUndefined();
  });

  it('takes a word typed as the start of only one candidate', () => {
    expect(closestWord('del', ['delete', 'help', 'list', 'set'])).toBe('delete');
  });

  it('takes the longest candidate a word starts with, more added: a view typed with the -tickets most views end in', () => {
    const views = ['my-tickets', 'my-open-tickets', 'my-escalated', 'all-escalated', 'my-completed-tickets', 'completed-tickets', 'my-completed-tasks'];
    expect(closestWord('my-escalated-tickets', views)).toBe('my-escalated');
    expect(closestWord('my-open-tickets2', views)).toBe('my-open-tickets');
    // Too little of the word for the candidate to be what was meant.
    expect(closestWord('my-tickets-of-last-week-for-printers', views)).toBeUndefined();
  });

  it('counts insertions, deletions, substitutions and a swap of neighbours as one edit each', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('lsit', 'list')).toBe(1);
  });
});
