// Replies and resolution notes kept from a failed send, saved on leaving triage: in drafts/,
// never over one saved before.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { saveDrafts } from '../../src/triage/drafts.js';
import { useTempDir } from '../helpers/sandbox-state.js';

let dir = '';
useTempDir('tkt-drafts-', (path) => (dir = path));

/** A run of the default profile, and one given --profile prod. */
const here = { globals: {}, env: {} };
const prod = { globals: { profile: 'prod' }, env: {} };

const drafts = (reply: [number, string][], resolution: [number, string][] = [], inDoubt: number[] = []) => ({
  drafts: { reply: new Map(reply), resolution: new Map(resolution) },
  draftsInDoubt: { reply: new Set(inDoubt), resolution: new Set<number>() },
});

describe('saving unsent texts', () => {
  it('saves each reply by ticket and says where; a second run keeps the first file', async () => {
    expect(await saveDrafts({ dir }, here, drafts([]))).toEqual([]);
    const first = await saveDrafts({ dir }, here, drafts([[1015, 'First try']]));
    const second = await saveDrafts({ dir }, here, drafts([[1015, 'Second try']]));
    expect(first).toEqual([
      `the reply to #1015 was not sent; it is saved in ${join(dir, 'drafts', 'reply-1015.txt')}\nhint: send it with "tkt reply 1015 --message-file ${join(dir, 'drafts', 'reply-1015.txt')}"\n`,
    ]);
    expect(second[0]).toContain(`it is saved in ${join(dir, 'drafts', 'reply-1015-2.txt')}\n`);
    expect(readFileSync(join(dir, 'drafts', 'reply-1015.txt'), 'utf8')).toBe('First try\n');
    expect(readFileSync(join(dir, 'drafts', 'reply-1015-2.txt'), 'utf8')).toBe('Second try\n');
  });

  it('saves resolution notes beside the replies, each in a file of its own', async () => {
    const said = await saveDrafts({ dir }, here, drafts([[1016, 'Reply']], [[1015, 'Cable reseated']]));
    expect(said).toEqual([
      `the reply to #1016 was not sent; it is saved in ${join(dir, 'drafts', 'reply-1016.txt')}\nhint: send it with "tkt reply 1016 --message-file ${join(dir, 'drafts', 'reply-1016.txt')}"\n`,
      `the resolution of #1015 was not sent; it is saved in ${join(dir, 'drafts', 'resolution-1015.txt')}\nhint: send it with "tkt resolve 1015 --details-file ${join(dir, 'drafts', 'resolution-1015.txt')}"\n`,
    ]);
    expect(readFileSync(join(dir, 'drafts', 'resolution-1015.txt'), 'utf8')).toBe('Cable reseated\n');
  });

  it("names a profile other than the default in the file's name and the hint: ticket 1015 of another service is another ticket", async () => {
    const said = await saveDrafts({ dir }, prod, drafts([], [[1015, 'Cable reseated']]));
    const file = join(dir, 'drafts', 'prod-resolution-1015.txt');
    // The hint's command names the profile: the draft is for that service's ticket.
    expect(said).toEqual([
      `the resolution of #1015 was not sent; it is saved in ${file}\nhint: send it with "tkt resolve 1015 --details-file ${file} --profile prod"\n`,
    ]);
    expect(readFileSync(file, 'utf8')).toBe('Cable reseated\n');
  });

  it('never says a reply whose send is in doubt was not sent: it may have been', async () => {
    const said = await saveDrafts(
      { dir },
      here,
      drafts(
        [
          [1039, 'Did it reach you?'],
          [1040, 'Refused'],
        ],
        [],
        [1039],
      ),
    );
    expect(said).toEqual([
      // No command to send it again: it may have reached the requester.
      `the reply to #1039 may have been sent (in doubt); it is kept in ${join(dir, 'drafts', 'reply-1039.txt')}\n`,
      `the reply to #1040 was not sent; it is saved in ${join(dir, 'drafts', 'reply-1040.txt')}\nhint: send it with "tkt reply 1040 --message-file ${join(dir, 'drafts', 'reply-1040.txt')}"\n`,
    ]);
  });
});
