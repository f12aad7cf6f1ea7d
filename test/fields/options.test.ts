import { Command } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { fieldsFor } from '../../src/model/fields.js';
import { addFieldOptions, assertFieldsApply, fieldOfOption, missingRequired, pickFieldValues } from '../../src/fields/options.js';

// The form fields update takes; register takes them all and the ticket's text, Cc, tags, SLA and Guid.
const UPDATE_FIELDS = [
  'AssignedUser',
  'ClientId',
  'CreatorId',
  'DepartmentId',
  'DueDate',
  'GroupId',
  'ImpactId',
  'ItemId',
  'ServiceId',
  'SiteId',
  'TicketCategoryId',
  'TicketPriorityId',
  'TicketStatusId',
  'TicketSubCategoryId',
  'TicketType',
  'TierLevelId',
  'UrgencyId',
];
const REGISTER_FIELDS = [...UPDATE_FIELDS, 'Title', 'Description', 'Cc', 'SelectedTags', 'SLAId', 'Guid'];
const NEW_FIELDS = [
  'ClientId',
  'DepartmentId',
  'Description',
  'Email',
  'GroupId',
  'Requester',
  'SiteId',
  'TicketCategoryId',
  'TicketPriorityId',
  'TicketStatusId',
  'TierLevelId',
  'Title',
];

describe('field table', () => {
  it.each([
    ['register', REGISTER_FIELDS],
    ['new', NEW_FIELDS],
    ['update', UPDATE_FIELDS],
  ] as const)('maps %s to the form fields of its spec model', (endpoint, expected) => {
    const formFields = fieldsFor(endpoint)
      .map((s) => s.formField)
      .filter((f) => f !== '')
      .sort();
    expect(formFields).toEqual([...expected].sort());
  });

  it('adds each option once to a command and reads repeatable ones as lists', () => {
    const command = addFieldOptions(new Command('create').exitOverride(), ['register', 'new']);
    const flags = command.options.map((o) => o.long);
    expect(new Set(flags).size).toBe(flags.length);
    expect(flags).toContain('--requester');
    expect(flags).toContain('--email');
    command.parse(['--tag', '1', '--tag', '2', '--site', 'HQ', '--attach', 'a.txt'], { from: 'user' });
    expect(pickFieldValues(command.opts())).toEqual({ tag: ['1', '2'], site: 'HQ', attach: ['a.txt'] });
  });

  it("tells the options it made from a command's own option of the same name", () => {
    const command = addFieldOptions(new Command('create'), ['register', 'new']).option('--from <file>', 'rows');
    const list = new Command('list').option('--status <name>', 'only tickets in this status');

    const option = (from: Command, flag: string) => from.options.find((candidate) => candidate.long === flag)!;

    expect(fieldOfOption(option(command, '--status'))?.formField).toBe('TicketStatusId');
    expect(fieldOfOption(option(command, '--requester'))?.formField).toBe('CreatorId');
    expect(fieldOfOption(option(command, '--from'))).toBeUndefined();
    expect(fieldOfOption(option(list, '--status'))).toBeUndefined();
  });

  it('names the missing required options per endpoint, in order', () => {
    expect(missingRequired('register', { title: 'T', site: '' })).toEqual(['--description', '--requester', '--site', '--department', '--status']);
    expect(missingRequired('new', { title: 'T', description: 'D', requester: 'u' })).toEqual([]);
    expect(missingRequired('update', {})).toEqual([]);
  });

  it('refuses options the endpoint does not take', () => {
    expect(() => assertFieldsApply('new', { item: 'x', title: 'T' }, '--integration')).toThrow(new UsageError('--item cannot be used with --integration'));
    expect(() => assertFieldsApply('register', { item: 'x' }, 'create')).not.toThrow();
  });
});
