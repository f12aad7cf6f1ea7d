// Text measured as terminals count it, cut and wrapped between graphemes.
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { displayWidth, truncate, truncateStart, wrapText } from '../../src/output/width.js';

describe('truncate / displayWidth', () => {
  it('cuts to the width including the ellipsis', () => {
    expect(truncate('abcdefgh', 5)).toBe('abcd…');
    expect(truncate('abc', 5)).toBe('abc');
    expect(displayWidth(truncate('打印机坏了', 5))).toBeLessThanOrEqual(5);
  });

  it('cuts from the start when the end matters', () => {
    expect(truncateStart('abcdefgh', 5)).toBe('…efgh');
    expect(truncateStart('abc', 5)).toBe('abc');
    expect(truncateStart('打印机坏了', 6)).toBe('…坏了');
  });

  it('measures as terminals do: © and ☀ one column, a flag and Hangul Jamo Extended two', () => {
    expect(displayWidth('©')).toBe(1);
    expect(displayWidth('☀')).toBe(1);
    expect(displayWidth('🇩🇪')).toBe(2);
    expect(displayWidth('ꥠ')).toBe(2);
    expect(displayWidth('漢字')).toBe(4);
    expect(displayWidth('a © b')).toBe(5);
    expect(truncate('🇩🇪🇩🇪🇩🇪', 5)).toBe('🇩🇪🇩🇪…');
    expect(truncate('©©©©©©', 4)).toBe('©©©…');
    expect(wrapText('ꥠ ꥠ ꥠ', 5)).toBe('ꥠ ꥠ\nꥠ');
  });

  it('agrees with string-width, which Ink draws triage with, on every character up to CJK (the fast path and past it)', () => {
    const disagree: string[] = [];
    for (let code = 0x20; code < 0x3000; code += 1) {
      if (code >= 0x7f && code < 0xa0) continue;
      const text = `a${String.fromCodePoint(code)}b`;
      if (displayWidth(text) !== stringWidth(text)) disagree.push(`U+${code.toString(16).padStart(4, '0')}`);
    }
    expect(disagree).toEqual([]);
  });

  it('measures a joined emoji, or one with a skin tone, as its parts side by side: the widest a terminal draws it', () => {
    // tmux 3.3a draws "👩🏽‍💻" in 4 columns, string-width counts 2, a terminal without the sequence 6.
    expect(displayWidth('👩🏽‍💻')).toBe(6);
    // A part with U+FE0F (emoji presentation) is as wide as the emoji drawn alone: 🏳️ two columns, not one.
    expect(displayWidth('🏳️‍🌈')).toBe(displayWidth('🏳️') + displayWidth('🌈'));
    expect(displayWidth('🏳️‍🌈')).toBe(4);
    expect(displayWidth('👁️‍🗨️')).toBe(4);
    expect(displayWidth('👩‍💻')).toBe(4);
    expect(displayWidth('👍🏽')).toBe(4);
    expect(displayWidth('Fix 👩🏽‍💻 laptop')).toBe(17);
    // Never cut inside: the whole sequence goes, or stays.
    expect(truncate('ab👩🏽‍💻cd', 9)).toBe('ab👩🏽‍💻…');
    expect(truncate('ab👩🏽‍💻cd', 8)).toBe('ab…');
    expect(wrapText('👩🏽‍💻 👩🏽‍💻', 10)).toBe('👩🏽‍💻\n👩🏽‍💻');
  });

  it('measures combining marks as zero and emoji as two', () => {
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('Jörg Müller, Łódź')).toBe(17);
    expect(truncate('Jörg Müller', 6)).toBe('Jörg …');
    expect(displayWidth('🖨️')).toBe(2);
    expect(displayWidth('ab')).toBe(2);
  });
});

describe('wrapText', () => {
  it('breaks between words, keeping the indent', () => {
    expect(wrapText('  one two three four five', 14)).toBe('  one two\n  three four\n  five');
  });

  it('breaks a word longer than the line between graphemes, by display width', () => {
    const wrapped = wrapText(`    ${'打印机卡纸了'.repeat(4)} done`, 20).split('\n');
    expect(wrapped).toEqual(['    打印机卡纸了打印', '    机卡纸了打印机卡', '    纸了打印机卡纸了', '    done']);
    for (const line of wrapped) expect(displayWidth(line)).toBeLessThanOrEqual(20);
    // Emoji and combining marks are never split from what they belong to.
    expect(wrapText('e\u0301e\u0301e\u0301👩‍💻👩‍💻', 4)).toBe('e\u0301e\u0301e\u0301\n👩‍💻\n👩‍💻');
  });
});
