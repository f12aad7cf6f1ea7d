// Matching without regard to case, accents, composition or width (src/util/fold.ts): what the
// triage filter, the pickers and the lookups match by, the same in every locale.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { foldForMatch, rankTyped } from '../../src/util/fold.js';
import { childScript } from '../helpers/child-script.js';

const finds = (typed: string, text: string) => foldForMatch(text).includes(foldForMatch(typed));

const SAMPLES = ['IŞIK', 'ışık', 'isik', 'İstanbul', 'DİYARBAKIR', 'arızası', 'Café', 'Cafe\u0301', 'ＰＲＩＮＴＥＲ', 'ﾌﾟﾘﾝﾀ', 'Jörg Müller', 'ΟΔΟΣ'];

describe('foldForMatch', () => {
  it('finds accented and decomposed text from plain letters, as "cafe" finds "Café"', () => {
    expect(finds('cafe', 'Café')).toBe(true);
    expect(finds('cafe', 'Cafe\u0301')).toBe(true);
    expect(finds('jorg', 'Jörg Müller')).toBe(true);
    expect(finds('Müller'.normalize('NFD'), 'Jörg Müller')).toBe(true);
  });

  it('finds Turkish text from plain Latin letters, and from Turkish ones in either case (ı and İ are an i)', () => {
    expect(finds('isik', 'IŞIK')).toBe(true);
    expect(finds('ışık', 'IŞIK')).toBe(true);
    expect(finds('IŞIK', 'ışık arızası')).toBe(true);
    expect(finds('arizasi', 'Yazıcı arızası')).toBe(true);
    expect(finds('istanbul', 'İSTANBUL ofisi')).toBe(true);
    expect(finds('diyarbakir', 'DİYARBAKIR')).toBe(true);
    expect(foldForMatch('İstanbul')).toBe('istanbul');
  });

  it('folds compatibility forms: full-width Latin and half-width katakana', () => {
    expect(finds('ＰＲＩＮＴＥＲ', 'Printer on fire')).toBe(true);
    expect(finds('printer', 'ＰＲＩＮＴＥＲ')).toBe(true);
    expect(finds('ﾌﾟﾘﾝﾀ', 'プリンタ故障')).toBe(true);
  });

  it('folds a final sigma as any sigma: a word typed in capitals finds it in small letters', () => {
    expect(finds('ΟΔΟΣ', 'οδος')).toBe(true);
    expect(finds('οδοσ', 'ΟΔΟΣ')).toBe(true);
  });

  it('keeps ASCII text as it is, lower-cased', () => {
    expect(foldForMatch('Printer ON fire #42')).toBe('printer on fire #42');
  });

  it('ranks Turkish and full-width typing as the plain letters', () => {
    const labels = ['Yazıcı arızası', 'IŞIK', 'Printer'];
    expect(rankTyped(labels, (label) => label, 'isik')).toEqual(['IŞIK']);
    expect(rankTyped(labels, (label) => label, 'ＰＲＩ')).toEqual(['Printer']);
  });

  it('folds the same in every locale (tr_TR, de_DE, C) as here', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tkt-fold-'));
    try {
      const script = await childScript(dir, { foldForMatch: 'util/fold.ts' }, `console.log(JSON.stringify(${JSON.stringify(SAMPLES)}.map(foldForMatch)));`);
      const here = SAMPLES.map(foldForMatch);
      for (const locale of ['tr_TR.UTF-8', 'de_DE.UTF-8', 'C']) {
        const env = { PATH: process.env.PATH, LANG: locale, LC_ALL: locale };
        const { stdout } = await promisify(execFile)(process.execPath, [script], { env });
        expect(JSON.parse(stdout), locale).toEqual(here);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
