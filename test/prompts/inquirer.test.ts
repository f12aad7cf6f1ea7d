// The real prompter on real streams: keys go in through a PassThrough as a terminal
// would send them, and everything drawn must land on the given stderr.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CancelledError, InterruptedError, OperationError, exitCodeOf, typedTextOf } from '../../src/errors.js';
import { createInquirerPrompter, matchesSearch, searchMatches } from '../../src/prompts/inquirer.js';
import { createCollector } from '../helpers/io.js';

const ENTER = '\r';
const CTRL_A = '\u0001';
const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const DOWN = '\u001b[B';
const ESC = '\u001b';

function setup(color = false) {
  const stdin = new PassThrough();
  const stderr = createCollector();
  const prompter = createInquirerPrompter({ stdin, stderr: stderr.stream, env: {}, color });
  // Sends keys once the prompt has drawn `shown`, as a user reacts to what is on screen.
  async function type(shown: string, ...keys: string[]) {
    while (!stderr.text().includes(shown)) await new Promise((resolve) => setTimeout(resolve, 5));
    for (const key of keys) {
      stdin.write(key);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return { stdin, stderr, prompter, type };
}

const sites = [
  { name: 'Headquarters', value: 1 },
  { name: 'Warehouse North', value: 2 },
  { name: 'Warehouse South', value: 3, description: 'Dock 7' },
];

describe('createInquirerPrompter', () => {
  it('reads typed input and draws the prompt on stderr', async () => {
    const { prompter, type, stderr } = setup();
    const answer = prompter.input({ message: 'Title' });
    await type('Title', 'Printer jam', ENTER);
    expect(await answer).toBe('Printer jam');
    expect(stderr.text()).toContain('Printer jam');
  });

  it('keeps keys typed ahead for the next prompts: the rest of a chunk after Enter, and keys between prompts', async () => {
    const { prompter, type, stdin } = setup();
    const title = prompter.input({ message: 'Title' });
    await type('Title', `Fast title${ENTER}Fast description${ENTER}south${ENTER}${DOWN}`);
    expect(await title).toBe('Fast title');
    // No prompt is open while the command works between two questions: what comes then waits.
    stdin.write(ENTER);
    expect(await prompter.input({ message: 'Description' })).toBe('Fast description');
    expect(await prompter.search({ message: 'Site', choices: sites })).toBe(3);
    expect(await prompter.select({ message: 'Site', choices: sites })).toBe(2);
  });

  it('uses the default on a bare Enter', async () => {
    const { prompter, type } = setup();
    const answer = prompter.input({ message: 'Subject', default: 'Re: VPN' });
    await type('Subject', ENTER);
    expect(await answer).toBe('Re: VPN');
  });

  it('keeps asking until validate accepts', async () => {
    const { prompter, type, stderr } = setup();
    const answer = prompter.input({ message: 'Title', validate: (v) => (v.length <= 5 ? true : 'at most 5 characters') });
    await type('Title', 'too long', ENTER);
    await type('at most 5 characters', ...Array(8).fill('\u007f'), 'short', ENTER);
    expect(await answer).toBe('short');
    expect(stderr.text()).toContain('at most 5 characters');
  });

  it('masks a password', async () => {
    const { prompter, type, stderr } = setup();
    const answer = prompter.password({ message: 'Password' });
    await type('Password', 's3cret', ENTER);
    expect(await answer).toBe('s3cret');
    expect(stderr.text()).not.toContain('s3cret');
    expect(stderr.text()).toContain('******');
  });

  it('keeps a password prompt open with the reason until validate accepts it', async () => {
    const { prompter, type, stderr } = setup();
    const answer = prompter.password({ message: 'Password', validate: (v) => v !== '' || 'the password is empty' });
    await type('Password', ENTER);
    await type('the password is empty', 's3cret', ENTER);
    expect(await answer).toBe('s3cret');
    expect(stderr.text()).not.toContain('s3cret');
  });

  it('confirms with y/n and falls back to the default', async () => {
    const first = setup();
    const yes = first.prompter.confirm({ message: 'Delete 2 tickets?' });
    await first.type('Delete 2 tickets?', 'y', ENTER);
    expect(await yes).toBe(true);

    const second = setup();
    const fallback = second.prompter.confirm({ message: 'Delete?', default: false });
    await second.type('Delete?', ENTER);
    expect(await fallback).toBe(false);
  });

  it('selects with the arrow keys and returns the value', async () => {
    const { prompter, type } = setup();
    const answer = prompter.select({ message: 'Site', choices: sites });
    await type('Site', DOWN, ENTER);
    expect(await answer).toBe(2);
  });

  it('starts a select on its default', async () => {
    const { prompter, type } = setup();
    const answer = prompter.select({ message: 'Site', choices: sites, default: 3 });
    await type('Site', ENTER);
    expect(await answer).toBe(3);
  });

  it('draws colour only when told to', async () => {
    const SGR = /\u001b\[[0-9;]*m/;
    const plain = setup(false);
    const plainAnswer = plain.prompter.select({ message: 'Site', choices: sites });
    await plain.type('Site', ENTER);
    await plainAnswer;
    expect(plain.stderr.text()).toContain('Headquarters');
    expect(plain.stderr.text()).not.toMatch(SGR);

    const coloured = setup(true);
    const colouredAnswer = coloured.prompter.select({ message: 'Site', choices: sites });
    await coloured.type('Site', ENTER);
    await colouredAnswer;
    expect(coloured.stderr.text()).toContain('\u001b[1mSite\u001b[22m');
  });

  it('filters a search list as the user types', async () => {
    const { prompter, type, stderr } = setup();
    const answer = prompter.search({ message: 'Site', choices: sites });
    await type('Headquarters', 'south');
    await type('Warehouse South', ENTER);
    expect(await answer).toBe(3);
    expect(stderr.text()).toContain('south');
  });

  it('starts a search list on its default, which Enter takes before anything is typed; typing starts at the best match', async () => {
    const { prompter, type } = setup();
    const untouched = prompter.search({ message: 'Site', choices: sites, default: 2 });
    await type('Warehouse North', ENTER);
    expect(await untouched).toBe(2);
    const typed = prompter.search({ message: 'Site', choices: sites, default: 2 });
    await type('Warehouse North', `house${ENTER}`);
    expect(await typed).toBe(2);
    const narrowed = prompter.search({ message: 'Site', choices: sites, default: 2 });
    await type('Warehouse North', `south${ENTER}`);
    expect(await narrowed).toBe(3);
  });

  it('takes a search typed together with Enter (fast typing, a paste): the first match of the whole term', async () => {
    const { prompter, type } = setup();
    const answer = prompter.search({ message: 'Site', choices: sites });
    await type('Headquarters', `south${ENTER}`);
    expect(await answer).toBe(3);
  });

  it('keeps a search open on Enter when nothing matches, with what was typed', async () => {
    const { prompter, type, stderr } = setup();
    const answer = prompter.search({ message: 'Site', choices: sites });
    await type('Headquarters', `nowhere${ENTER}`);
    await type('No results found', ...Array(7).fill('\u007f'), 'north', ENTER);
    expect(await answer).toBe(2);
    expect(stderr.text()).toContain('nowhere');
  });

  it('turns Ctrl-C into InterruptedError', async () => {
    const { prompter, type } = setup();
    const answer = prompter.select({ message: 'Site', choices: sites });
    const outcome = expect(answer).rejects.toBeInstanceOf(InterruptedError);
    await type('Site', CTRL_C);
    await outcome;
  });

  it.each([
    ['a picker', (prompter: ReturnType<typeof setup>['prompter']) => prompter.select({ message: 'Warehouse', choices: sites })],
    ['a search', (prompter: ReturnType<typeof setup>['prompter']) => prompter.search({ message: 'Warehouse', choices: sites })],
    ['a line', (prompter: ReturnType<typeof setup>['prompter']) => prompter.input({ message: 'Warehouse' })],
    ['a password', (prompter: ReturnType<typeof setup>['prompter']) => prompter.password({ message: 'Warehouse' })],
    ['a confirmation', (prompter: ReturnType<typeof setup>['prompter']) => prompter.confirm({ message: 'Warehouse' })],
  ])('cancels %s at Esc: exit 1, not interrupted, the prompt erased', async (_kind, ask) => {
    const { prompter, type, stderr } = setup();
    const outcome = ask(prompter).then(
      () => undefined,
      (error: unknown) => error,
    );
    await type('Warehouse', ESC);
    const error = await outcome;
    expect(error).toBeInstanceOf(CancelledError);
    expect(error).not.toBeInstanceOf(InterruptedError);
    expect(exitCodeOf(error)).toBe(1);
    expect((error as Error).message).toBe('cancelled: Esc closed the question');
    // Erased: the last drawing leaves nothing of it on the screen.
    expect(stderr.text().split('\u001b[').at(-1)).not.toContain('Warehouse');
  });

  it('gives Esc read with a character to readline as that character with Alt, and an arrow key, which starts with it, to the picker', async () => {
    const line = setup();
    const title = line.prompter.input({ message: 'Title' });
    // Alt-B (ESC b in one write): a word back, where "Paper " goes in front of "jam".
    await line.type('Title', 'jam', `${ESC}b`, 'Paper ', ENTER);
    expect(await title).toBe('Paper jam');
    const picker = setup();
    const site = picker.prompter.select({ message: 'Site', choices: sites });
    await picker.type('Warehouse South', DOWN, ENTER);
    expect(await site).toBe(2);
  });

  it.each([
    ['Ctrl-C', CTRL_C, InterruptedError],
    ['Esc', ESC, CancelledError],
  ])('carries the text typed at a line of text to send when %s closes it, and none for another line', async (_key, closing, kind) => {
    const notes = setup();
    const asked = notes.prompter.input({ message: 'Notes', textToSend: true }).catch((error: unknown) => error);
    await notes.type('Notes', 'Cable ', 'reseated', closing);
    const closed = await asked;
    expect(closed).toBeInstanceOf(kind);
    expect(typedTextOf(closed)).toBe('Cable reseated');
    // The text answered is drawn as an answer is.
    const more = setup();
    const answered = more.prompter.input({ message: 'More', textToSend: true });
    await more.type('More', 'Done', ENTER);
    expect(await answered).toBe('Done');
    expect(more.stderr.text()).toMatch(/✔ More Done/);

    const title = setup();
    const titled = title.prompter.input({ message: 'Title' }).catch((error: unknown) => error);
    await title.type('Title', 'Paper jam', closing);
    expect(typedTextOf(await titled)).toBeUndefined();
    // Nothing typed but blanks: nothing to keep.
    const blank = setup();
    const blanked = blank.prompter.input({ message: 'Notes', textToSend: true }).catch((error: unknown) => error);
    await blank.type('Notes', '  ', closing);
    expect(typedTextOf(await blanked)).toBeUndefined();
  });

  // Readline ends its input at a Ctrl-D on an empty line; inquirer would then wait for ever,
  // the terminal echoing what is typed next (a password in clear).
  it.each([
    ['a password', (prompter: ReturnType<typeof setup>['prompter']) => prompter.password({ message: 'Password' })],
    ['a line', (prompter: ReturnType<typeof setup>['prompter']) => prompter.input({ message: 'Password' })],
    ['a picker', (prompter: ReturnType<typeof setup>['prompter']) => prompter.search({ message: 'Password', choices: sites })],
  ])('turns Ctrl-D on an empty line of %s into a declined question (exit 1), not a prompt that waits for ever', async (_kind, ask) => {
    const { prompter, type } = setup();
    const outcome = ask(prompter).then(
      () => undefined,
      (error: unknown) => error,
    );
    await type('Password', CTRL_D);
    const error = await outcome;
    expect(error).toBeInstanceOf(OperationError);
    expect(exitCodeOf(error)).toBe(1);
    expect((error as Error).message).toBe('no answer: Ctrl-D closed the question');
  });

  it('keeps Ctrl-D within a line what readline makes it: the character after the cursor deleted', async () => {
    const { prompter, type } = setup();
    const answer = prompter.input({ message: 'Title' });
    await type('Title', 'xPrinter', CTRL_A, CTRL_D, ENTER);
    expect(await answer).toBe('Printer');
  });

  it('shows server text in choices and messages escaped', async () => {
    const { prompter, type, stderr } = setup();
    const answer = prompter.select({
      message: 'Close "\u001b]0;pwned\u0007"?',
      choices: [{ name: 'evil\u001b[2Jname', value: 'x' }],
    });
    await type('evil', ENTER);
    expect(await answer).toBe('x');
    expect(stderr.text()).toContain('evil^[[2Jname');
    expect(stderr.text()).toContain('^[]0;pwned^G');
    expect(stderr.text()).not.toContain('\u001b]0;');
    expect(stderr.text()).not.toContain('\u001b[2J');
  });
});

describe('matchesSearch', () => {
  it('matches every word, case-insensitively, in the name or description', () => {
    expect(matchesSearch(sites[1]!, 'NORTH ware')).toBe(true);
    expect(matchesSearch(sites[2]!, 'dock')).toBe(true);
    expect(matchesSearch(sites[0]!, 'south')).toBe(false);
    expect(matchesSearch(sites[0]!, undefined)).toBe(true);
    expect(matchesSearch(sites[0]!, '')).toBe(true);
  });

  it('matches what is typed without accents, and accents typed on an unaccented name', () => {
    expect(matchesSearch({ name: 'Jörg Müller' }, 'jorg mull')).toBe(true);
    expect(matchesSearch({ name: 'Jorg Muller' }, 'jörg')).toBe(true);
    expect(matchesSearch({ name: 'Jörg Müller' }, 'joerg')).toBe(false);
  });
});

describe('searchMatches', () => {
  const names = (choices: { name: string; description?: string }[], term: string) => searchMatches(choices, term).map((index) => choices[index]!.name);

  it("orders as triage's pickers do: a name starting with what was typed, then a word that does, then a match inside a word", () => {
    const technicians = [{ name: '@me (Tom Tech)' }, { name: 'Ada Admin (admin)' }, { name: 'Tom Tech (tech)' }, { name: 'Omar Haddad (ohaddad)' }];
    expect(names(technicians, 'om')).toEqual(['Omar Haddad (ohaddad)', '@me (Tom Tech)', 'Tom Tech (tech)']);
    const requesters = [{ name: 'Anna Lind' }, { name: 'Li Wei' }, { name: 'Amelia Stone' }];
    expect(names(requesters, 'Li')).toEqual(['Li Wei', 'Anna Lind', 'Amelia Stone']);
  });

  it('keeps choices matched word by word or by their description, after the ranked ones, in list order', () => {
    expect(names(sites, 'north ware')).toEqual(['Warehouse North']);
    expect(names(sites, 'ar')).toEqual(['Headquarters', 'Warehouse North', 'Warehouse South']);
    expect(names([...sites, { name: 'Dockside' }], 'dock')).toEqual(['Dockside', 'Warehouse South']);
  });
});
