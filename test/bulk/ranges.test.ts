import { describe, expect, it } from 'vitest';
import { formatRanges, rangeLines } from '../../src/bulk/ranges.js';

describe('formatRanges', () => {
  it('joins consecutive numbers into ranges and keeps singletons', () => {
    expect(formatRanges([1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1013], '#')).toBe('#1001-1010, #1013');
    expect(formatRanges([7], '#')).toBe('#7');
    expect(formatRanges([3, 5, 7], '')).toBe('3, 5, 7');
  });

  it('shows two consecutive numbers as a range too', () => {
    expect(formatRanges([4, 5, 9], '#')).toBe('#4-5, #9');
  });

  it('sorts unsorted input and drops duplicates', () => {
    expect(formatRanges([12, 3, 11, 1, 2, 12, 3, 10], '#')).toBe('#1-3, #10-12');
  });

  it('prints nothing for no numbers', () => {
    expect(formatRanges([], '#')).toBe('');
  });
});

describe('rangeLines', () => {
  const sparse = Array.from({ length: 5000 }, (_, index) => 1001 + index * 2);

  it('keeps a short list on one line after its label', () => {
    expect(rangeLines('closed', [1, 2, 3, 9], { prefix: '#', width: 78 })).toEqual({ lines: ['closed: #1-3, #9'], cut: false });
  });

  it('wraps a long list at the width, continuation lines indented, without losing a number when uncapped', () => {
    const { lines, cut } = rangeLines(
      'failed rows',
      Array.from({ length: 200 }, (_, index) => 1 + index * 2),
      { prefix: '', width: 60 },
    );
    expect(cut).toBe(false);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
    expect(lines[0]!.startsWith('failed rows: 1, 3, 5')).toBe(true);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {2}\d/);
    const shown = lines.join(' ').replace('failed rows:', '').split(/[ ,]+/).filter(Boolean).map(Number);
    expect(shown).toEqual(Array.from({ length: 200 }, (_, index) => 1 + index * 2));
  });

  it('caps the lines, counting the numbers left out', () => {
    const { lines, cut } = rangeLines('closed', sparse, { prefix: '#', width: 78, maxLines: 2 });
    expect(cut).toBe(true);
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(78);
    const shown = lines.join(' ').match(/#\d+/g)!.length;
    expect(lines[1]).toMatch(new RegExp(` and ${5000 - shown} more$`));
  });

  it('counts every number of a range left out', () => {
    // 100 ranges of 3: each cut range takes 3 IDs with it.
    const triples = Array.from({ length: 300 }, (_, index) => 1000 + Math.floor(index / 3) * 10 + (index % 3));
    const { lines } = rangeLines('not started', triples, { prefix: '#', width: 50, maxLines: 1 });
    expect(lines).toHaveLength(1);
    const shownRanges = lines[0]!.match(/#\d+-\d+/g)!.length;
    expect(lines[0]).toMatch(new RegExp(` and ${300 - shownRanges * 3} more$`));
  });

  it('does not cut when the list fits exactly', () => {
    expect(rangeLines('closed', [1, 3], { prefix: '#', width: 15, maxLines: 1 })).toEqual({ lines: ['closed: #1, #3'], cut: false });
  });

  it('lets a range wider than the line overflow it rather than loop or drop it', () => {
    const { lines } = rangeLines('closed', [123456789, 123456790, 5], { prefix: '#', width: 10 });
    expect(lines).toEqual(['closed: #5,', '  #123456789-123456790']);
  });
});
