// The hint after a saved draft: the command that sends it, runnable as printed.
import { describe, expect, it } from 'vitest';
import { optionWords, resendHint } from '../../src/cmdutil/drafts.js';

const run = (globals: { url?: string; profile?: string; allowHttp?: boolean } = {}, env: Record<string, string> = {}) => ({ globals, env });

describe('resendHint', () => {
  it('quotes the draft path where the shell would split or expand it, and adds the profile, --url and --allow-http of the run', () => {
    const reply = { words: 'reply 1023', fileOption: '--message-file' };
    expect(resendHint(run(), reply, '/home/u/.config/tkt/drafts/reply-1023.txt')).toBe(
      'hint: send it with "tkt reply 1023 --message-file /home/u/.config/tkt/drafts/reply-1023.txt"\n',
    );
    expect(resendHint(run(), reply, "/home/u/My Config/it's/drafts/reply-1023.txt")).toBe(
      `hint: send it with "tkt reply 1023 --message-file '/home/u/My Config/it'\\''s/drafts/reply-1023.txt'"\n`,
    );
    expect(resendHint(run({ url: 'http://desk.test:8080', allowHttp: true }, { TKT_PROFILE: 'prod' }), reply, '/d/prod-reply-1023.txt')).toBe(
      'hint: send it with "tkt reply 1023 --message-file /d/prod-reply-1023.txt --profile prod --url http://desk.test:8080 --allow-http"\n',
    );
    // The default profile goes without saying, as in every hint's command.
    expect(resendHint(run({ profile: 'default' }), reply, '/d/reply-1023.txt')).toBe('hint: send it with "tkt reply 1023 --message-file /d/reply-1023.txt"\n');
  });

  it('says what the command needs besides', () => {
    expect(resendHint(run(), { words: 'resolve -', fileOption: '--details-file', besides: 'the ticket IDs on stdin again' }, '/d/resolution.txt')).toBe(
      'hint: send it with "tkt resolve - --details-file /d/resolution.txt", the ticket IDs on stdin again\n',
    );
  });
});

describe('optionWords', () => {
  it('gives each value after its option, quoted, a flag alone for true, and leaves out what was not given', () => {
    expect(
      optionWords([
        ['--to', ['a@example.com', 'b@example.com']],
        ['--cc', undefined],
        ['--subject', 'Re: $HOME'],
        ['--draft', true],
        ['--reopen', false],
        ['--attach', []],
      ]),
    ).toEqual(['--to a@example.com', '--to b@example.com', "--subject 'Re: $HOME'", '--draft']);
  });
});
