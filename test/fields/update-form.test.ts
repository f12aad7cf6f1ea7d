import { describe, expect, it } from 'vitest';
import { mergeUpdateForm } from '../../src/fields/update-form.js';

describe('read-modify-write', () => {
  const detail = {
    Id: 7,
    SiteId: 2,
    departmentId: 3,
    ticketStatusId: 1,
    TicketPriorityId: null,
    category: { id: 4, name: 'Network' },
    creator: { id: 'u-1', userName: 'anna' },
    assignedUser: null,
    assignee: null,
    dueDate: '2030-01-01T00:00:00Z',
    templateId: 'tpl-guid',
  };

  it('sends every current value plus the changes', () => {
    expect(mergeUpdateForm(7, detail, { TicketStatusId: 2, AssignedUser: 'u-me' })).toEqual({
      Id: 7,
      SiteId: 2,
      DepartmentId: 3,
      TicketStatusId: 2,
      TicketPriorityId: undefined,
      TicketCategoryId: 4,
      TicketSubCategoryId: undefined,
      ItemId: undefined,
      GroupId: undefined,
      TierLevelId: undefined,
      ClientId: undefined,
      CreatorId: 'u-1',
      AssignedUser: 'u-me',
      TicketType: undefined,
      ServiceId: undefined,
      ImpactId: undefined,
      UrgencyId: undefined,
      DueDate: '2030-01-01T00:00:00Z',
      TemplateId: 'tpl-guid',
    });
  });

  // The service applies the status only when given and different (docs/service.md 4.4): the one
  // read is not sent back, where it would undo a close made between the read and the update.
  it('leaves the status out unless it is one of the changes', () => {
    const form = mergeUpdateForm(7, detail, { AssignedUser: 'u-me' });
    expect(form).not.toHaveProperty('TicketStatusId');
    expect(form).toMatchObject({ SiteId: 2, DepartmentId: 3, TicketCategoryId: 4, CreatorId: 'u-1', AssignedUser: 'u-me' });
  });
});
