// The scripted prompter is what every command test trusts, so it is tested too.
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/errors.js';
import { createHarness } from '../helpers/harness.js';
import { createScriptedPrompter } from '../helpers/prompter.js';

const priorities = [
  { name: 'Low', value: 1 },
  { name: 'High', value: 3 },
];

describe('createScriptedPrompter', () => {
  it('answers in order and records what was asked', async () => {
    const prompter = createScriptedPrompter([
      { kind: 'input', value: 'Printer jam', message: 'Title' },
      { kind: 'select', name: 'High' },
      { kind: 'search', value: 1 },
      { kind: 'confirm', value: false },
      { kind: 'password', value: 's3cret' },
      { kind: 'editor', value: 'long text' },
    ]);
    expect(await prompter.input({ message: 'Title of the ticket' })).toBe('Printer jam');
    expect(await prompter.select({ message: 'Priority', choices: priorities })).toBe(3);
    expect(await prompter.search({ message: 'Priority', choices: priorities })).toBe(1);
    expect(await prompter.confirm({ message: 'Delete 2 tickets?' })).toBe(false);
    expect(await prompter.password({ message: 'Password' })).toBe('s3cret');
    expect(await prompter.editor({ message: 'Description' })).toBe('long text');
    prompter.assertDone();
    expect(prompter.asked.map((p) => p.kind)).toEqual(['input', 'select', 'search', 'confirm', 'password', 'editor']);
    expect(prompter.asked[1]).toEqual({ kind: 'select', message: 'Priority', choices: ['Low', 'High'] });
  });

  it("records each prompt's default, which Enter takes; Enter where there is none fails", async () => {
    const prompter = createScriptedPrompter([
      { kind: 'select', enter: true },
      { kind: 'input', enter: true },
      { kind: 'confirm', enter: true },
      { kind: 'input', enter: true },
    ]);
    expect(await prompter.select({ message: 'Priority', choices: priorities, default: 3 })).toBe(3);
    expect(await prompter.input({ message: 'Due', default: '2030-01-01T00:00:00.000Z' })).toBe('2030-01-01T00:00:00.000Z');
    expect(await prompter.confirm({ message: 'Update ticket #5?', default: true })).toBe(true);
    await expect(prompter.input({ message: 'Service' })).rejects.toThrow('input "Service" has no default for Enter to take');
    expect(prompter.asked.map((p) => p.default)).toEqual(['High', '2030-01-01T00:00:00.000Z', true, undefined]);
  });

  it('fails loudly on the wrong kind, the wrong message, or an unknown choice', async () => {
    await expect(createScriptedPrompter([{ kind: 'confirm', value: true }]).input({ message: 'Title' })).rejects.toThrow(/answered by a scripted confirm/);
    await expect(createScriptedPrompter([{ kind: 'input', value: 'x', message: 'Subject' }]).input({ message: 'Title' })).rejects.toThrow(
      /does not mention "Subject"/,
    );
    await expect(createScriptedPrompter([{ kind: 'select', name: 'Urgent' }]).select({ message: 'Priority', choices: priorities })).rejects.toThrow(
      /no choice with name "Urgent"; choices: Low, High/,
    );
  });

  it('fails when asked more than scripted, and assertDone fails when answers are left', async () => {
    const prompter = createScriptedPrompter([
      { kind: 'input', value: 'a' },
      { kind: 'confirm', value: true },
    ]);
    await prompter.input({ message: 'First' });
    expect(() => prompter.assertDone()).toThrow(/1 scripted answer\(s\) never asked for/);
    await prompter.confirm({ message: 'Sure?' });
    await expect(prompter.input({ message: 'Third' })).rejects.toThrow(/unexpected prompt #3 .*no scripted answer left/);
  });

  it('simulates Ctrl-C with an InterruptedError', async () => {
    const prompter = createScriptedPrompter([{ interrupt: true }]);
    await expect(prompter.select({ message: 'Site', choices: priorities })).rejects.toBeInstanceOf(InterruptedError);
  });

  it("runs the command's validate on scripted input", async () => {
    const prompter = createScriptedPrompter([{ kind: 'input', value: '' }]);
    await expect(prompter.input({ message: 'Title', validate: (v) => (v === '' ? 'required' : true) })).rejects.toThrow(/rejected: required/);
  });
});

describe('the harness', () => {
  it('fails a test whose scripted answers were not all asked for, at its end and at close()', async () => {
    const h = await createHarness();
    try {
      await h.context({ answers: [{ kind: 'input', value: 'never asked' }] });
      expect(() => h.assertPromptsDone()).toThrow(/1 scripted answer\(s\) never asked for/);
      // Checked once: the next test starts clean.
      expect(() => h.assertPromptsDone()).not.toThrow();
      await h.context({ answers: [{ kind: 'confirm', value: true }] });
    } finally {
      await expect(h.close()).rejects.toThrow(/never asked for/);
    }
  });
});
