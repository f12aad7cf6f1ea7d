// Replies kept from a failed send, saved on leaving triage: in drafts/, never over one saved before.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { saveUnsentReplies } from '../../src/triage/drafts.js';
import { useTempDir } from '../helpers/sandbox-state.js';

let dir = '';
useTempDir('tkt-drafts-', (path) => (dir = path));

describe('saving unsent replies', () => {
  it('saves each reply by ticket and says where; a second run keeps the first file', async () => {
    expect(await saveUnsentReplies(dir, new Map())).toEqual([]);
    const first = await saveUnsentReplies(dir, new Map([[1015, 'First try']]));
    const second = await saveUnsentReplies(dir, new Map([[1015, 'Second try']]));
    expect(first).toEqual([`the reply to #1015 was not sent; it is saved in ${join(dir, 'drafts', 'reply-1015.txt')}\n`]);
    expect(second).toEqual([`the reply to #1015 was not sent; it is saved in ${join(dir, 'drafts', 'reply-1015-2.txt')}\n`]);
    expect(readFileSync(join(dir, 'drafts', 'reply-1015.txt'), 'utf8')).toBe('First try\n');
    expect(readFileSync(join(dir, 'drafts', 'reply-1015-2.txt'), 'utf8')).toBe('Second try\n');
  });
});
