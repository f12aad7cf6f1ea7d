import { describe, expect, it } from 'vitest';
import { ExitCode, UsageError } from '../../src/errors.js';
import { MAX_RUN_IDS, parseTicketId, parseWholeNumber, ticketSpans } from '../../src/util/ids.js';

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

// A newcomer's review: after Ctrl-C, `not started: #1033-5537` and "run again for the IDs not
// started, listed above"; `tkt read 1033-5537` said `expected a positive whole number`.
describe("ticketSpans: an ID... argument as tkt's summaries print IDs", () => {
  it.each([
    ['1031', [[1031, 1031]]],
    ['#1031', [[1031, 1031]]],
    ['1001-1010', [[1001, 1010]]],
    ['#1001-1010', [[1001, 1010]]],
    ['#1001-#1010', [[1001, 1010]]],
    // A summary's list copied with its comma, or quoted whole.
    ['#1001-1010,', [[1001, 1010]]],
    ['#1013,', [[1013, 1013]]],
    [
      '#1001-1010, #1013',
      [
        [1001, 1010],
        [1013, 1013],
      ],
    ],
    [
      '#1001-1010,  #1013, #1020-1021,',
      [
        [1001, 1010],
        [1013, 1013],
        [1020, 1021],
      ],
    ],
    [' 1001-1003 ', [[1001, 1003]]],
  ])('reads %j', (text, spans) => {
    expect(ticketSpans(text)).toEqual(spans.map(([first, last]) => ({ first, last })));
  });

  it.each([
    // A reversed range, or one from an ID to itself: tkt never prints them.
    ['1010-1001', 'invalid ID range "1010-1001": the first ID is the higher; write 1001-1010'],
    ['#1001-1001', 'invalid ID range "#1001-1001": from an ID to itself; write 1001'],
    ['0-5', 'invalid ID range "0-5": 0 is no ticket ID (expected a positive whole number)'],
    [`1-${MAX_RUN_IDS + 1}`, `invalid ID range "1-${MAX_RUN_IDS + 1}": ${MAX_RUN_IDS + 1} IDs, more than the ${MAX_RUN_IDS} one run takes`],
    // The refusals of one ID stay: a thousands separator, IDs run on by a comma and no blank.
    ['1,031', 'invalid ticket ID "1,031": write it as 1031'],
    ['1,031,', 'invalid ticket ID "1,031,": write it as 1031'],
    ['1031,1032', 'invalid ticket ID "1031,1032": write one ID per line'],
    ['1031.5', 'invalid ticket ID "1031.5": a decimal number'],
    ['-1001-1010', 'invalid ticket ID "-1001-1010": expected a positive whole number'],
    ['1001-1010-1020', 'invalid ticket ID "1001-1010-1020": expected a positive whole number'],
    ['1001 - 1010', 'invalid ticket ID "1001 - 1010": expected a positive whole number'],
    ['1001-1010,,', 'invalid ticket ID "1001-1010,,": expected a positive whole number'],
    [',', 'invalid ticket ID ",": expected a positive whole number'],
    // In a list, the item that is no ID is named.
    ['#1001-1010, x', 'invalid ticket ID "x": expected a positive whole number'],
    ['#1001, 1010-1001', 'invalid ID range "1010-1001": the first ID is the higher; write 1001-1010'],
  ])('refuses %j: %s', (text, message) => {
    expect(() => ticketSpans(text)).toThrow(new UsageError(message));
  });
});

describe('parseTicketId for a command of one ID', () => {
  it('says that the command takes one ID, given a range or a list', () => {
    expect(() => parseTicketId('1001-1010', 'show')).toThrow(new UsageError('invalid ticket ID "1001-1010": show takes one ticket ID, not a range'));
    expect(() => parseTicketId('#1001-1010', 'update')).toThrow(new UsageError('invalid ticket ID "#1001-1010": update takes one ticket ID, not a range'));
    expect(() => parseTicketId('#1001, #1013', 'reply')).toThrow(new UsageError('invalid ticket ID "#1001, #1013": reply takes one ticket ID, not a list'));
    // Anything else as before.
    expect(() => parseTicketId('1,031', 'show')).toThrow(new UsageError('invalid ticket ID "1,031": write it as 1031'));
    expect(parseTicketId('#1031', 'show')).toBe(1031);
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
