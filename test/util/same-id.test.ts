import { describe, expect, it } from 'vitest';
import { sameId } from '../../src/util/same-id.js';

describe('sameId', () => {
  it('takes a GUID in upper case for the same GUID in lower case', () => {
    expect(sameId('215DCC9C-D708-4B78-AFD5-AF77DA6AAE77', '215dcc9c-d708-4b78-afd5-af77da6aae77')).toBe(true);
  });

  it('compares anything else as text, case included', () => {
    expect(sameId(3, '3')).toBe(true);
    expect(sameId('Printer', 'printer')).toBe(false);
    expect(sameId('215dcc9c-d708-4b78-afd5-af77da6aae77', '215dcc9c-d708-4b78-afd5-af77da6aae78')).toBe(false);
  });
});
