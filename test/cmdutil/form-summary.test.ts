// The form as `tkt create` shows it before asking to create the ticket.
import { describe, expect, it } from 'vitest';
import { changeSummary, formSummary } from '../../src/cmdutil/form-summary.js';
import { useTimeZone } from '../helpers/time-zone.js';

describe('formSummary', () => {
  it('lists the fields to be sent under the words of the prompts, chosen names with their IDs, the type in words, the files', () => {
    const form = {
      fields: { Title: 'Printer\ton fire', CreatorId: 'u-7', SiteId: 1, TicketType: 1, Cc: undefined, DueDate: null },
      files: [
        { path: 'a.log', name: 'a.log' },
        { path: '/dev/stdin', name: 'build.log' },
      ],
    };
    expect(formSummary('register', form, { labels: { CreatorId: 'Anna Berg', SiteId: 'Head Office', Cc: 'unused' } })).toBe(
      [
        '  Title:        Printer on fire',
        '  Requester:    Anna Berg (u-7)',
        '  Site:         Head Office (1)',
        '  Type:         ticket',
        '  Attachments:  a.log',
        '  Attachments:  /dev/stdin as build.log',
        '',
      ].join('\n'),
    );
    // A person whose username is known goes by it, as everywhere in tkt, not by their user ID.
    const people = { labels: { CreatorId: 'Anna Berg' }, people: { CreatorId: 'Anna Berg (aberg)' } };
    expect(formSummary('register', { fields: { CreatorId: 'u-7' } }, people)).toBe('  Requester:  Anna Berg (aberg)\n');
    expect(formSummary('new', { fields: { Requester: 'aberg', TicketType: 4 } })).toBe('  Requester username:  aberg\n  TicketType:          4\n');
    expect(formSummary('register', { fields: { TicketType: 4 } })).toBe('  Type:  4\n');
    expect(formSummary('register', { fields: {} })).toBe('');
  });

  it('wraps a long value under its value column at a narrow terminal, an ID broken where it must be', () => {
    const form = { fields: { Title: 'Laptop overheating during video calls', CreatorId: '85377ae3-9e33-42a7-a9a1-5f2c3b1d0e77' } };
    const summary = formSummary('register', form, { labels: { CreatorId: 'Anna Berg' } }, 40);
    expect(summary).toBe(
      [
        '  Title:      Laptop overheating during',
        '              video calls',
        '  Requester:  Anna Berg',
        '              (85377ae3-9e33-42a7-a9a1-5',
        '              f2c3b1d0e77)',
        '',
      ].join('\n'),
    );
    for (const line of summary.split('\n')) expect(line.length).toBeLessThanOrEqual(40);
  });

  it('shows the first lines of a long description, each cut to its column, then how many more: the form keeps it whole', () => {
    const description = [
      'Smoke from tray 2 since the toner was changed this morning by the vendor',
      '',
      '\tSeen at',
      '#1234 too',
      'Fifth',
      'Sixth',
      'Seventh',
    ].join('\n');
    const form = { fields: { Title: 'Printer on fire', Description: description } };
    const summary = formSummary('register', form, {}, 40);
    expect(summary).toBe(
      [
        '  Title:        Printer on fire',
        '  Description:  Smoke from tray 2 since…',
        '                ',
        '                 Seen at',
        '                #1234 too',
        '                Fifth',
        '                … (2 more lines)',
        '',
      ].join('\n'),
    );
    expect(form.fields.Description).toBe(description);
    // One more line is said as one; piped, the lines are not cut.
    expect(formSummary('register', { fields: { Description: ['1', '2', '3', '4', '5', '6'].join('\n') } })).toBe(
      '  Description:  1\n                2\n                3\n                4\n                5\n                … (1 more line)\n',
    );
    expect(formSummary('register', { fields: { Description: 'x'.repeat(100) } })).toBe(`  Description:  ${'x'.repeat(100)}\n`);
  });
});

describe('changeSummary', () => {
  useTimeZone('Europe/Oslo');

  it("lists what an update changes, old → new, under the prompts' words: names, people by username, dates as tkt shows them, the type in words", () => {
    const fields = { AssignedUser: 'u-9', TicketPriorityId: 1, DueDate: '2030-12-20T09:00:00.000Z', TicketType: 1, ImpactId: 3 };
    const was = { AssignedUser: 'Tom Tech', TicketPriorityId: 'Medium', DueDate: '2030-12-01 10:00', TicketType: '2' };
    const aids = { labels: { AssignedUser: 'Omar Haddad', TicketPriorityId: 'Low' }, people: { AssignedUser: 'Omar Haddad (ohaddad)' } };
    expect(changeSummary(fields, was, aids)).toBe(
      [
        '  Assignee:  Tom Tech → Omar Haddad (ohaddad)',
        '  Priority:  Medium → Low',
        '  Due:       2030-12-01 10:00 → 2030-12-20 10:00',
        '  Type:      2 → ticket',
        // What the questions did not say is nothing the ticket holds.
        '  Impact:    empty → 3',
        '',
      ].join('\n'),
    );
  });

  it('wraps its note to the terminal under the margin, and leaves it whole when piped', () => {
    const note = 'the service may recompute the due date from the SLA of the new priority';
    expect(changeSummary({ TicketPriorityId: 1 }, { TicketPriorityId: 'Medium' }, {}, { width: 40, note })).toBe(
      ['  Priority:  Medium → 1', '  the service may recompute the due date', '  from the SLA of the new priority', ''].join('\n'),
    );
    expect(changeSummary({ TicketPriorityId: 1 }, { TicketPriorityId: 'Medium' }, {}, { note })).toBe(`  Priority:  Medium → 1\n  ${note}\n`);
    // A value sent as the ticket holds it (a due date kept with a new priority) is said kept.
    expect(changeSummary({ DueDate: '2030-12-20T09:00:00.000Z' }, { DueDate: '2030-12-20 10:00' })).toBe('  Due:  2030-12-20 10:00 (kept)\n');
  });
});
