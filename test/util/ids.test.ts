import { describe, expect, it } from 'vitest';
import { ExitCode, UsageError } from '../../src/errors.js';
import { parseTicketId, parseWholeNumber } from '../../src/util/ids.js';

describe('parseTicketId', () => {
  it.each([
    ['12', 12],
    ['1', 1],
    [' 42 ', 42],
    ['007', 7],
    // As tkt prints them (#42), and as stdin takes them.
    ['#42', 42],
    [' #42 ', 42],
    [String(Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER],
  ])('accepts %j as %d', (text, id) => {
    expect(parseTicketId(text)).toBe(id);
  });

  it.each(['0', '-4', '+4', '12a', '1e3', '0x10', '', '  ', '#', '##12', '# 12', '#0', '#-4', '12#'])('refuses %j with a usage error naming it', (text) => {
    let caught: unknown;
    try {
      parseTicketId(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as UsageError).exitCode).toBe(ExitCode.usage);
    expect((caught as UsageError).message).toBe(`invalid ticket ID ${JSON.stringify(text)}: expected a positive whole number`);
  });

  it.each([
    ['1.5', 'a decimal number'],
    ['1,031', 'write it as 1031'],
    ['#1,031,555', 'write it as 1031555'],
    ['12,13', 'write one ID per line'],
  ])('refuses %j saying why: %s', (text, problem) => {
    expect(() => parseTicketId(text)).toThrow(new UsageError(`invalid ticket ID ${JSON.stringify(text)}: ${problem}`));
  });

  // A whole number all the same: "expected a positive whole number" would contradict it.
  it.each([String(Number.MAX_SAFE_INTEGER + 1), '9'.repeat(30)])('refuses %j as out of range, saying the largest ID', (text) => {
    expect(() => parseTicketId(text)).toThrow(
      new UsageError(`invalid ticket ID ${JSON.stringify(text)}: out of range: IDs go up to ${Number.MAX_SAFE_INTEGER}`),
    );
  });
});

describe('parseWholeNumber', () => {
  it('accepts digits within the range, blanks around them allowed', () => {
    expect(parseWholeNumber(' 0 ', { min: 0 })).toBe(0);
    expect(parseWholeNumber('32', { min: 1, max: 32 })).toBe(32);
    expect(parseWholeNumber(String(Number.MAX_SAFE_INTEGER), { min: 1 })).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each([
    ['0', { min: 1 }],
    ['33', { min: 1, max: 32 }],
    ['-1', { min: 0 }],
    ['1e3', { min: 0 }],
    ['', { min: 0 }],
    [String(Number.MAX_SAFE_INTEGER + 1), { min: 0 }],
  ])('refuses %j in %j', (text, range) => {
    expect(parseWholeNumber(text, range)).toBeUndefined();
  });
});
