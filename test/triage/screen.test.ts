// Where triage puts the terminal's cursor for a screen reader (TKT_SCREEN_READER): the line a
// reader's "read the current line" should read.
import { describe, expect, it } from 'vitest';
import { readerCursor } from '../../src/triage/screen.js';

describe('readerCursor', () => {
  it('is at the start of the highlighted row', () => {
    expect(readerCursor(['tkt triage · mine · 2 tickets', '    ID  TITLE', '  1031  Mouse', '› 1029  Shared drive', 'keys'], false)).toEqual({ x: 0, y: 3 });
  });

  it('is at the cursor of the text being typed, colour escapes not counted', () => {
    expect(readerCursor(['tkt triage · 2 of 10 tickets  filter: /mo▏', '› 1029  Shared drive'], true)).toEqual({ x: 41, y: 0 });
    expect(readerCursor(['› 1029  Shared drive', '\u001b[1mResolution notes\u001b[22m', '> fixed it▏'], true)).toEqual({ x: 10, y: 2 });
  });

  // A code review: with a picker's filter empty, the cursor stayed on it while Down moved the choice.
  it("in a picker with nothing typed, is on the choice Enter takes, not the list's row above", () => {
    const lines = ['› 1029  Shared drive', 'Assign #1029 to', '> ▏', '  Ada Admin (admin)', '› Tom Tech (tech)'];
    expect(readerCursor(lines, true)).toEqual({ x: 0, y: 4 });
    expect(readerCursor(['› 1029  Shared drive', 'Resolution notes', '> ▏'], true)).toEqual({ x: 2, y: 2 });
  });

  it('is nowhere when nothing is highlighted or typed', () => {
    expect(readerCursor(['tkt triage · mine · 0 tickets', 'no ticket matches the filter'], false)).toBeUndefined();
  });

  // The re-read of the change: a ▏ in a ticket's title was taken for the cursor of text typed.
  it("takes a ▏ in a ticket's text for no cursor: the highlighted row, or the text typed under the list", () => {
    const lines = ['tkt triage · mine · 2 tickets', '  1031  Bar ▏ chart broken', '› 1029  Shared drive'];
    expect(readerCursor(lines, false)).toEqual({ x: 0, y: 2 });
    expect(readerCursor([...lines, 'Resolution notes', '> done▏'], true)).toEqual({ x: 6, y: 4 });
  });
});
