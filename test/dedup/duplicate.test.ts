// How --reopen tells a ticket tkt closed as a duplicate, from conversations of any service's shape.
import { describe, expect, it } from 'vitest';
import { duplicateComment, duplicateOf } from '../../src/dedup/duplicate.js';
import type { ConversationEntry } from '../../src/model/ticket.js';

const entry = (type: string | undefined, message: string, draft = false): ConversationEntry => ({
  type,
  draft,
  message,
  from: undefined,
  to: undefined,
  cc: undefined,
  at: undefined,
  subject: undefined,
});

describe('duplicateOf', () => {
  it('reads the original back from the comment tkt closes a duplicate with', () => {
    expect(duplicateOf([entry('RequesterReply', 'log'), entry('Close', duplicateComment(1033, 'race:k1'))])).toBe(1033);
  });

  it('takes close entries by any type naming, or none, and the comment on a later line or inside markup', () => {
    expect(duplicateOf([entry('Closure', 'closed by tkt\n\nDuplicate of #7 (the same failure)')])).toBe(7);
    expect(duplicateOf([entry('TicketClosed', '<p>Duplicate of #8</p>')])).toBe(8);
    expect(duplicateOf([entry(undefined, 'Duplicate of #9')])).toBe(9);
  });

  it('lets the latest close decide, and reads no replies, drafts or mentions further in', () => {
    expect(duplicateOf([entry('Close', 'Duplicate of #7'), entry('RequesterReply', 'again'), entry('Close', 'fixed upstream')])).toBeUndefined();
    expect(duplicateOf([entry('Close', 'fixed'), entry('RequesterReply', 'Duplicate of #7')])).toBeUndefined();
    expect(duplicateOf([entry('Close', 'fixed'), entry('Close', 'Duplicate of #7', true)])).toBeUndefined();
    expect(duplicateOf([entry('Close', 'not a Duplicate of #7 after all')])).toBeUndefined();
    expect(duplicateOf([])).toBeUndefined();
  });
});
