import { describe, expect, it } from 'vitest';
import { arrayField, field, stringField } from '../../src/api/member-access.js';

describe('field', () => {
  it('takes the first of the names present as written', () => {
    expect(field({ title: 'a', Title: 'b' }, 'Title', 'title')).toBe('b');
    expect(field({ subject: 's', title: 't' }, 'name', 'title', 'subject')).toBe('t');
  });

  it('finds a name in another case, in the order of the names given, not of the keys', () => {
    expect(field({ TICKETID: 7 }, 'ticketId')).toBe(7);
    expect(field({ SUBJECT: 's', TITLE: 't' }, 'title', 'subject')).toBe('t');
    expect(field({ Subject: 's', Title: 't' }, 'name', 'subject', 'title')).toBe('s');
  });

  it('takes the last of keys that differ only in case, as a map of them by lower case would', () => {
    expect(field({ TITLE: 'first', tItLe: 'last' }, 'title')).toBe('last');
  });

  it('answers undefined for what is not an object or has none of the names', () => {
    expect(field(null, 'title')).toBeUndefined();
    expect(field('title', 'title')).toBeUndefined();
    expect(field([1, 2], 'length')).toBeUndefined();
    expect(field({ other: 1 }, 'title', 'subject')).toBeUndefined();
  });

  it('keeps a value that is present but empty: null, 0, false and "" are answers', () => {
    expect(field({ Assignee: null }, 'assignee')).toBeNull();
    expect(field({ count: 0 }, 'Count')).toBe(0);
    expect(field({ flag: false }, 'flag')).toBe(false);
    expect(field({ NAME: '' }, 'name')).toBe('');
  });
});

describe('stringField and arrayField', () => {
  it('read numbers and booleans as text, and nothing else', () => {
    expect(stringField({ Id: 12 }, 'id')).toBe('12');
    expect(stringField({ done: true }, 'done')).toBe('true');
    expect(stringField({ tags: ['a'] }, 'tags')).toBeUndefined();
  });

  it('answer a list, or an empty one for anything else', () => {
    expect(arrayField({ Statuses: [1, 2] }, 'status', 'statuses')).toEqual([1, 2]);
    expect(arrayField({ statuses: 'Open' }, 'statuses')).toEqual([]);
  });
});
