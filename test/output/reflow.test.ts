// Help prose laid out for a width: paragraphs re-wrapped, headings and examples kept.
import { describe, expect, it } from 'vitest';
import { helpForWidth, reflow } from '../../src/output/reflow.js';

describe('reflow', () => {
  it('runs a sentence on when a line of its source ends with a colon', () => {
    const text = 'The service skips the others:\ntkt names each file it skipped.';

    expect(reflow(text, 80)).toBe('The service skips the others: tkt names each file it skipped.');
  });

  it('keeps a heading on a line of its own, with the prose or the examples after it', () => {
    const text = 'Settings:\nprose under the heading\n\nExamples:\n  $ tkt list';

    expect(reflow(text, 80)).toBe('Settings:\nprose under the heading\n\nExamples:\n  $ tkt list');
  });

  it('wraps a paragraph between words within the width', () => {
    expect(reflow('one two three four five', 9)).toBe('one two\nthree\nfour five');
  });
});

describe('helpForWidth', () => {
  const help = [
    'Usage: tkt list [options]',
    '',
    'Options:',
    '  --view <view>           a list type, e.g. my-overdue-tickets (see below);',
    '                          default: "tkt config get default-view", else the',
    "                          service's own",
    '  -h, --help              show help',
    '',
    'Filters (names resolve like everywhere: "--status on" is On Hold if unique): tkt',
    'fetches the pages and keeps the matching tickets.',
    '',
    'Views:',
    '  all-my-groups, my-open-or-unassigned, unassigned-tickets, my-open-tickets,',
    '  my-tickets-onhold, my-overdue-tickets,',
    '',
    'Examples:',
    '  $ tkt list --all --created-after -7d --csv --columns id,title,due > week.csv',
    '  $ tkt create --title "Printer on fire" --description - --requester aberg \\',
    '      --site "Head Office" --department IT --status Open < notes.txt',
    '  $ tkt sandbox            # a local emulator of the service, with demo data',
    '',
  ].join('\n');
  const words = (text: string) =>
    text
      .replace(/ \\\n/g, ' ')
      .split(/\s+/)
      .filter((word) => word !== '' && word !== '#');

  it('keeps help as it is at 80 columns or more, and where the width is unknown (a pipe)', () => {
    expect(helpForWidth(help, 80)).toBe(help);
    expect(helpForWidth(help, 200)).toBe(help);
    expect(helpForWidth(help, undefined)).toBe(help);
  });

  it('lays help out for a narrower terminal: every line within the width, every word whole', () => {
    const narrow = helpForWidth(help, 60);

    for (const line of narrow.split('\n')) expect(line.length, line).toBeLessThanOrEqual(60);
    expect(words(narrow)).toEqual(words(help));
  });

  it("keeps an option's description in its column, wrapped at words", () => {
    expect(helpForWidth(help, 60)).toContain(
      [
        '  --view <view>           a list type, e.g.',
        '                          my-overdue-tickets (see below);',
        '                          default: "tkt config get',
        '                          default-view", else the service\'s',
        '                          own',
        '  -h, --help              show help',
      ].join('\n'),
    );
  });

  it('re-wraps a list of names as one when a line of it is too long', () => {
    expect(helpForWidth(help, 60)).toContain(
      '\nViews:\n  all-my-groups, my-open-or-unassigned, unassigned-tickets,\n  my-open-tickets, my-tickets-onhold, my-overdue-tickets,\n\n',
    );
  });

  it('puts a description under its name when its column leaves it too little room', () => {
    const text = 'Commands:\n  help [options] [command-or-topic...]  Show help for a command, or a topic: environment, exit codes\n';

    expect(helpForWidth(text, 50)).toBe(
      'Commands:\n  help [options] [command-or-topic...]\n      Show help for a command, or a topic:\n      environment, exit codes\n',
    );
  });

  it('puts a description under its name when a word of it does not fit its column', () => {
    const text = 'Options:\n  --in <fields>           where --search looks: comma-separated\n                          Subject,TicketId,Priority,Requester\n';

    expect(helpForWidth(text, 60)).toBe('Options:\n  --in <fields>\n      where --search looks: comma-separated\n      Subject,TicketId,Priority,Requester\n');
  });

  it('breaks an example only between words outside quotes, each broken line ending with a backslash, as a shell reads it', () => {
    const narrow = helpForWidth(help, 60);

    expect(narrow).toContain(['  $ tkt list --all --created-after -7d --csv --columns \\', '      id,title,due > week.csv'].join('\n'));
    expect(narrow).toContain(
      [
        '  $ tkt create --title "Printer on fire" --description - \\',
        '      --requester aberg \\',
        '      --site "Head Office" --department IT --status Open \\',
        '      < notes.txt',
      ].join('\n'),
    );
  });

  it("moves an example's comment to a line of its own when it does not fit beside it", () => {
    expect(helpForWidth(help, 60)).toContain('  $ tkt sandbox\n      # a local emulator of the service, with demo data\n');
  });

  it('takes a "$ " line for an example wherever it stands, with the lines it goes on on', () => {
    const text = [
      'One ticket per CI failure.',
      '  $ tkt create --integration --title "Nightly failed" --description-file a.log \\',
      '      --requester ci-bot --attach a.log --dedup-key ci:nightly',
      '  $ tkt list',
      '',
    ].join('\n');

    expect(helpForWidth(text, 60)).toBe(
      [
        'One ticket per CI failure.',
        '  $ tkt create --integration --title "Nightly failed" \\',
        '      --description-file a.log \\',
        '      --requester ci-bot --attach a.log --dedup-key \\',
        '      ci:nightly',
        '  $ tkt list',
        '',
      ].join('\n'),
    );
  });

  it('lets an example run long rather than break a quoted word', () => {
    const text = `Examples:\n  $ tkt alias set urgent '!tkt list -q --all --priority High | tkt pickup -'\n`;

    expect(helpForWidth(text, 40)).toBe(`Examples:\n  $ tkt alias set urgent \\\n      '!tkt list -q --all --priority High | tkt pickup -'\n`);
  });
});
