import { describe, expect, it } from 'vitest';
import { pageText } from '../../src/output/pager.js';
import { createCollector } from '../helpers/io.js';

/** What a pager that prints these variables of its environment (`-` for unset) shows. */
async function pagerSees(names: string[], env: Record<string, string>, stays = false): Promise<string> {
  const out = createCollector();
  const pager = `cat > /dev/null; ${names.map((name) => `printf '%s=%s\\n' ${name} "\${${name}-"-"}"`).join('; ')}`;
  expect(await pageText('Jörg Müller\n', pager, out.stream, { PATH: process.env.PATH, ...env }, { stays })).toBeUndefined();
  return out.text();
}

describe('the pager environment', () => {
  it('gives less LESSCHARSET=utf-8 (tkt writes UTF-8 whatever the locale) unless the user set LESSCHARSET or LESSCHARDEF', async () => {
    const names = ['LESSCHARSET', 'LESSCHARDEF'];
    for (const stays of [false, true]) {
      // Under LANG=C less would show ö as <C3><B6>.
      expect(await pagerSees(names, { LANG: 'C', LC_ALL: 'C' }, stays)).toBe('LESSCHARSET=utf-8\nLESSCHARDEF=-\n');
      expect(await pagerSees(names, { LESSCHARSET: 'latin1' }, stays)).toBe('LESSCHARSET=latin1\nLESSCHARDEF=-\n');
      expect(await pagerSees(names, { LESSCHARDEF: '8bcccbcc18b95.b' }, stays)).toBe('LESSCHARSET=-\nLESSCHARDEF=8bcccbcc18b95.b\n');
    }
  });

  it('takes an exported but empty LESSCHARSET or LESSCHARDEF for unset, as less does: LESSCHARSET=utf-8', async () => {
    const names = ['LESSCHARSET', 'LESSCHARDEF'];
    for (const stays of [false, true]) {
      // `export LESSCHARSET=` passed on as is: less would fall back on LANG=C and show ö as <C3><B6>.
      expect(await pagerSees(names, { LANG: 'C', LESSCHARSET: '' }, stays)).toBe('LESSCHARSET=utf-8\nLESSCHARDEF=-\n');
      expect(await pagerSees(names, { LANG: 'C', LESSCHARDEF: '' }, stays)).toBe('LESSCHARSET=utf-8\nLESSCHARDEF=\n');
    }
  });

  it("keeps git's LESS and LV unless the user set them", async () => {
    expect(await pagerSees(['LESS', 'LV'], {})).toBe('LESS=FRX\nLV=-c\n');
    expect(await pagerSees(['LESS', 'LV'], { LESS: 'R', LV: '-a' })).toBe('LESS=R\nLV=-a\n');
    expect(await pagerSees(['LESS'], {}, true)).toBe('LESS=R\n');
  });
});
