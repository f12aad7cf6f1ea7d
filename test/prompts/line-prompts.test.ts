// The real prompter at a dumb terminal (cursorControl false: TERM=dumb), on real streams: each
// question is written once and read as a line, and nothing written holds an escape (a dumb
// terminal shows them as text). Keys are written ahead: the type-ahead gives them to each
// question in turn, as a terminal's typed-ahead lines are.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InterruptedError, OperationError } from '../../src/errors.js';
import { createInquirerPrompter } from '../../src/prompts/inquirer.js';
import { LIST_ALL } from '../../src/prompts/line-prompts.js';
import { createCollector } from '../helpers/io.js';

const ESC = '\u001b';

function setup(signal?: AbortSignal) {
  const raw: boolean[] = [];
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode(mode: boolean) {
      raw.push(mode);
      return stdin;
    },
  });
  const stderr = createCollector();
  const prompter = createInquirerPrompter({
    stdin,
    stderr: stderr.stream,
    env: { TERM: 'dumb' },
    cursorControl: false,
    ...(signal === undefined ? {} : { signal }),
  });
  return { stdin, stderr, prompter, raw };
}

const sites = [
  { name: 'Headquarters', value: 1 },
  { name: 'Warehouse North', value: 2 },
  { name: 'Warehouse South', value: 3, description: 'Dock 7' },
];

describe('the prompter at a dumb terminal', () => {
  it('asks for text once, takes the line, and shows a default as (default: X)', async () => {
    const { prompter, stdin, stderr } = setup();
    stdin.write('Printer jam\n\n');
    expect(await prompter.input({ message: 'Title' })).toBe('Printer jam');
    expect(await prompter.input({ message: 'Subject', default: 'Re: VPN' })).toBe('Re: VPN');
    expect(stderr.text()).toBe('Title: Subject (default: Re: VPN): ');
  });

  it('asks again with the reason until validate accepts; \\r\\n is one Enter', async () => {
    const { prompter, stdin, stderr } = setup();
    stdin.write('too long\r\nshort\r\n');
    expect(await prompter.input({ message: 'Title', validate: (v) => (v.length <= 5 ? true : 'at most 5 characters') })).toBe('short');
    expect(await Promise.race([prompter.input({ message: 'Next' }), Promise.resolve('nothing yet')])).toBe('nothing yet');
    expect(stderr.text()).toBe('Title: at most 5 characters\nTitle: Next: ');
  });

  it('reads a password in raw mode, echoing nothing; Backspace takes back a character', async () => {
    const { prompter, stdin, stderr, raw } = setup();
    stdin.write('s3cx\u007fret\r');
    expect(await prompter.password({ message: 'Password' })).toBe('s3cret');
    expect(stderr.text()).toBe('Password: \n');
    // Echo off for the password only: the next question is the terminal's cooked line again.
    expect(raw).toEqual([true, false]);
  });

  it('asks for a password again with the reason until validate accepts it', async () => {
    const { prompter, stdin, stderr } = setup();
    stdin.write('\rs3cret\r');
    expect(await prompter.password({ message: 'Password', validate: (v) => v !== '' || 'the password is empty' })).toBe('s3cret');
    expect(stderr.text()).toBe('Password: \nthe password is empty\nPassword: \n');
  });

  it('ends a password on Ctrl-C, as every prompt does: InterruptedError, the terminal cooked again', async () => {
    const { prompter, stdin, stderr, raw } = setup();
    stdin.write('s3\u0003');
    await expect(prompter.password({ message: 'Password' })).rejects.toBeInstanceOf(InterruptedError);
    expect(raw).toEqual([true, false]);
    expect(stderr.text()).toBe('Password: \n');
  });

  // Ctrl-D at the cooked line ends the terminal's input; in the password's raw mode it is a key.
  it('declines a question at the end of input (Ctrl-D), and a password at a Ctrl-D on its empty answer: exit 1', async () => {
    const line = setup();
    const title = line.prompter.input({ message: 'Title' });
    line.stdin.end();
    const declined = await title.catch((error: unknown) => error);
    expect(declined).toBeInstanceOf(OperationError);
    expect((declined as Error).message).toBe('no answer: Ctrl-D closed the question');
    expect(line.stderr.text()).toBe('Title: \n');

    const password = setup();
    password.stdin.write('\u0004');
    await expect(password.prompter.password({ message: 'Password' })).rejects.toThrow('no answer: Ctrl-D closed the question');
    expect(password.raw).toEqual([true, false]);
  });

  it('closes a question on the run stop signal (SIGINT of the cooked terminal, SIGTERM)', async () => {
    const stop = new AbortController();
    const { prompter, stderr } = setup(stop.signal);
    const answer = prompter.input({ message: 'Title' });
    stop.abort('SIGINT');
    await expect(answer).rejects.toBeInstanceOf(InterruptedError);
    expect(stderr.text()).toBe('Title: \n');
  });

  it('confirms with y/yes/n/no or the default, and asks again once with a reason for anything else', async () => {
    const { prompter, stdin, stderr } = setup();
    stdin.write('\nyes\nmaybe\nN\n');
    expect(await prompter.confirm({ message: 'Delete ticket #1330?', default: false })).toBe(false);
    expect(await prompter.confirm({ message: 'Delete ticket #1330?', default: false })).toBe(true);
    expect(await prompter.confirm({ message: 'Create this ticket?' })).toBe(false);
    expect(stderr.text()).toBe(
      'Delete ticket #1330? [y/N] Delete ticket #1330? [y/N] Create this ticket? [Y/n] Answer y (yes) or n (no).\nCreate this ticket? [Y/n] ',
    );
  });

  it('numbers the choices of a select: a number picks and the choice is named, Enter takes the default', async () => {
    const { prompter, stdin, stderr } = setup();
    stdin.write('2\n\n');
    expect(await prompter.select({ message: 'Site', choices: sites })).toBe(2);
    expect(await prompter.select({ message: 'Site', choices: sites, default: 3 })).toBe(3);
    const list = 'Site\n1. Headquarters\n2. Warehouse North\n3. Warehouse South - Dock 7\n';
    // The echoed "2" does not say what was chosen (a screen reader hears only that): the name does.
    expect(stderr.text()).toBe(`${list}Number or name: Site: Warehouse North\n${list}Number or name (default: Warehouse South): `);
  });

  // A screen-reader review: an empty Enter at a question with no default repeated how to
  // answer, never that an answer is needed.
  it('says an answer is needed when Enter is pressed at a choice without a default', async () => {
    const { prompter, stdin, stderr } = setup();
    stdin.write('\n1\n');
    expect(await prompter.select({ message: 'Site', choices: sites })).toBe(1);
    expect(stderr.text()).toContain('Number or name: An answer is needed: type a number from the list, or part of a name.\nNumber or name: ');
  });

  it('takes a type-to-filter default on Enter, shown once in parentheses: (none) as (default: none)', async () => {
    const { prompter, stdin, stderr } = setup();
    const optional = [{ name: '(none)', value: 0 }, ...sites];
    const people = [{ name: '(none)', value: 0 }, ...Array.from({ length: LIST_ALL + 10 }, (_, index) => ({ name: `Person ${index + 1}`, value: index + 1 }))];
    stdin.write('\n\n');
    expect(await prompter.search({ message: 'Site', choices: optional, default: 0 })).toBe(0);
    expect(await prompter.search({ message: 'Assignee', choices: people, default: 0 })).toBe(0);
    expect(stderr.text()).toBe(
      'Site\n1. (none)\n2. Headquarters\n3. Warehouse North\n4. Warehouse South - Dock 7\nNumber or name (default: none): ' +
        'Assignee (61 choices: type part of a name to list the ones that match)\nName (default: none): ',
    );
  });

  it('narrows a picker by the text typed: one match picks it, several are listed numbered, best first', async () => {
    const { prompter, stdin, stderr } = setup();
    stdin.write('head\nhouse\n2\nzzz\nsouth\n');
    expect(await prompter.search({ message: 'Site', choices: sites })).toBe(1);
    expect(await prompter.search({ message: 'Site', choices: sites })).toBe(3);
    expect(await prompter.select({ message: 'Site', choices: sites })).toBe(3);
    expect(stderr.text()).toContain('2 match "house":\n1. Warehouse North\n2. Warehouse South - Dock 7\nNumber or name: ');
    expect(stderr.text()).toContain('No choice matches "zzz".\nNumber or name: ');
    // Each choice picked by part of its name or by number is named.
    expect(stderr.text().match(/Site: [^\n]*/g)).toEqual(['Site: Headquarters', 'Site: Warehouse South', 'Site: Warehouse South']);
  });

  it('asks for text first on a list too long to read through; the numbers are those of the matches listed', async () => {
    const { prompter, stdin, stderr } = setup();
    const people = Array.from({ length: LIST_ALL + 10 }, (_, index) => ({ name: `Person ${index + 1}`, value: index + 1 }));
    stdin.write('son 1\n3\n');
    expect(await prompter.search({ message: 'Requester', choices: people })).toBe(11);
    expect(stderr.text()).toMatch(
      /^Requester \(60 choices: type part of a name to list the ones that match\)\nName: 15 match "son 1":\n1\. Person 1\n2\. Person 10\n/,
    );
    expect(stderr.text()).not.toContain('Person 2\n');
  });

  it('picks the choice whose name is typed whole, though longer names match too', async () => {
    const { prompter, stdin, stderr } = setup();
    stdin.write('warehouse north\n');
    const choices = [...sites, { name: 'Warehouse North Annex', value: 4 }];
    expect(await prompter.search({ message: 'Site', choices })).toBe(2);
    // Typed whole, it is not named again.
    expect(stderr.text()).not.toContain('Site: ');
  });

  it('writes no escape, and server text in a question or a choice is shown escaped', async () => {
    const { prompter, stdin, stderr } = setup();
    stdin.write('x\ny\n1\n');
    await prompter.input({ message: `Reply to ${ESC}[2J`, default: `Re: ${ESC}[31mred` });
    await prompter.confirm({ message: 'Delete?' });
    await prompter.search({ message: 'Site', choices: [{ name: `Evil ${ESC}]0;title\u0007`, value: 1 }] });
    expect(stderr.text()).not.toContain(ESC);
  });
});
