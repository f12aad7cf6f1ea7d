import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/errors.js';
import { createLookups } from '../../src/lookups/index.js';
import { askLookup, askUpdateFields, fillTicketFields } from '../../src/prompts/fill.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import type { ScriptedAnswer } from '../helpers/prompter.js';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});

afterAll(async () => {
  await h.close();
});

async function prompting(answers: ScriptedAnswer[]) {
  const run = await h.context({ tty: true, answers });
  return { ...run, lookups: createLookups(run.ctx) };
}

function userId(username: string): string {
  return h.sandbox.state.users.find((u) => u.username === username)!.id;
}

describe('askLookup', () => {
  it('offers a short list as a select and returns the chosen ID as text', async () => {
    const run = await prompting([{ kind: 'select', message: 'Site', name: 'Remote' }]);
    expect(await askLookup(run.ctx, run.lookups, 'site', { message: 'Site' })).toBe('3');
    expect(run.prompter.asked[0]!.choices).toEqual(['Head Office', 'Harbour Depot', 'Remote']);
  });

  it('offers "(none)" for optional values and returns undefined for it', async () => {
    const run = await prompting([{ kind: 'select', message: 'Client', name: '(none)' }]);
    expect(await askLookup(run.ctx, run.lookups, 'client', { message: 'Client', optional: true })).toBeUndefined();
    expect(run.prompter.asked[0]!.choices![0]).toBe('(none)');
  });

  it('takes "(none)" of an optional value on Enter, in a select and in a type-to-filter list, as the drawn pickers do', async () => {
    const run = await prompting([
      { kind: 'select', message: 'Client', enter: true },
      { kind: 'search', message: 'Assignee', enter: true },
    ]);
    expect(await askLookup(run.ctx, run.lookups, 'client', { message: 'Client', optional: true })).toBeUndefined();
    expect(await askLookup(run.ctx, run.lookups, 'assignee', { message: 'Assignee', optional: true, search: true })).toBeUndefined();
    // A required one has no choice for Enter but the one it names.
    const required = await prompting([{ kind: 'select', message: 'Site', enter: true }]);
    await expect(askLookup(required.ctx, required.lookups, 'site', { message: 'Site' })).rejects.toThrow('has no default for Enter to take');
    const status = await prompting([{ kind: 'select', message: 'Status', enter: true }]);
    expect(await askLookup(status.ctx, status.lookups, 'status', { message: 'Status', defaultName: 'open' })).toBe('1');
  });

  it('uses type-to-filter for people, showing usernames next to full names', async () => {
    const run = await prompting([{ kind: 'search', message: 'Requester', name: 'Maria Gonzalez (mgonzalez)' }]);
    expect(await askLookup(run.ctx, run.lookups, 'requester', { message: 'Requester', search: true })).toBe(userId('mgonzalez'));
  });

  it('passes Ctrl-C on as InterruptedError', async () => {
    const run = await prompting([{ interrupt: true }]);
    await expect(askLookup(run.ctx, run.lookups, 'status', { message: 'Status' })).rejects.toBeInstanceOf(InterruptedError);
  });
});

describe('fillTicketFields', () => {
  it('asks only the missing required fields and keeps the given ones', async () => {
    const run = await prompting([
      { kind: 'input', message: 'Title', value: 'Asked title' },
      { kind: 'select', message: 'Status', name: 'On Hold' },
    ]);
    const filled = await fillTicketFields(
      run.ctx,
      run.lookups,
      { description: 'd', requester: 'aberg', site: 'HQ', department: '1', priority: 'Low' },
      { endpoint: 'register', optional: false },
    );
    run.prompter.assertDone();
    expect(filled).toEqual({ title: 'Asked title', description: 'd', requester: 'aberg', site: 'HQ', department: '1', status: '3', priority: 'Low' });
  });

  it('refuses an over-long title at the prompt', async () => {
    const run = await prompting([{ kind: 'input', message: 'Title', value: 'x'.repeat(256) }]);
    await expect(fillTicketFields(run.ctx, run.lookups, { description: 'd', requester: 'r' }, { endpoint: 'new', optional: false })).rejects.toThrow(
      /at most 255/,
    );
  });

  it('asks sub-category only after a category, and item only after a sub-category', async () => {
    const run = await prompting([
      { kind: 'select', message: 'Priority', name: '(none)' },
      { kind: 'select', message: 'Category', name: '(none)' },
      { kind: 'select', message: 'Group', name: 'Applications' },
      { kind: 'search', message: 'Assignee', name: '(none)' },
    ]);
    const filled = await fillTicketFields(
      run.ctx,
      run.lookups,
      { title: 't', description: 'd', requester: 'aberg', site: '1', department: '1', status: '1' },
      { endpoint: 'register', optional: true },
    );
    run.prompter.assertDone();
    expect(filled.group).toBe('4');
    expect(filled).not.toHaveProperty('category');
    expect(filled).not.toHaveProperty('subcategory');
  });

  it('for the integration endpoint asks the requester username and skips fields it does not take', async () => {
    const run = await prompting([
      { kind: 'input', message: 'Requester username', value: 'lwei' },
      { kind: 'select', message: 'Site', name: '(none)' },
      { kind: 'select', message: 'Department', name: '(none)' },
      { kind: 'select', message: 'Status', name: '(none)' },
      { kind: 'select', message: 'Priority', name: 'High' },
      { kind: 'select', message: 'Category', name: 'Access' },
      { kind: 'select', message: 'Group', name: '(none)' },
    ]);
    const filled = await fillTicketFields(run.ctx, run.lookups, { title: 't', description: 'd' }, { endpoint: 'new', optional: true });
    run.prompter.assertDone();
    expect(filled).toEqual({ title: 't', description: 'd', requester: 'lwei', priority: '3', category: '4' });
  });
});

describe('askUpdateFields', () => {
  it('asks for people with type-to-filter and for a short list with a select, as the field table says', async () => {
    const run = await prompting([
      // Four technicians: few enough for a select, but people lists grow.
      { kind: 'select', message: 'Field to change', name: 'assignee' },
      { kind: 'search', message: 'assignee', name: 'Tom Tech (tech)' },
      { kind: 'select', message: 'Another field to change?', name: 'priority' },
      { kind: 'select', message: 'priority', name: 'High' },
      { kind: 'select', message: 'Another field to change?', name: 'no more: update the ticket' },
    ]);
    const { values } = await askUpdateFields(run.ctx, run.lookups);
    run.prompter.assertDone();
    expect(values).toEqual({ assignee: userId('tech'), priority: '3' });
  });
});
