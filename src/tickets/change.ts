// Changing a few fields of a ticket the safe way (spec 4.4): the update form may treat an
// absent field as "clear it", so the ticket is read and sent back whole with the changes.
// The everyday changes (assign, reopen) are described here once, for their commands and for
// anything else that makes them (the triage screen).
import { plans } from '../api/plans.js';
import type { ApiClient, ApiResponse, FormValue, TicketId } from '../api/types.js';
import type { Lookups, TypedOption } from '../lookups/types.js';
import type { SendablePlan } from './dry-run.js';
import { mergeUpdateForm } from './update-form.js';
import type { IdCommandSpec } from './id-command.js';

/** Form fields to change, with the names of the looked-up IDs (for --dry-run and messages). */
export interface FieldChange {
  fields: Readonly<Record<string, FormValue>>;
  labels: Readonly<Record<string, string>>;
}

/** The status `reopen` sets when none is named (contract section 10). */
export const DEFAULT_REOPEN_STATUS = 'Open';

/** Read-modify-write of one ticket: its current fields plus `changes`. */
export async function changeTicket(client: ApiClient, id: TicketId, changes: Readonly<Record<string, FormValue>>): Promise<ApiResponse> {
  const current = await client.getTicket(id);
  return client.send(plans.updateTicket(id, { fields: mergeUpdateForm(id, current.body, changes) }));
}

/** A new assignee: `user` is a user ID, username, full name or @me, resolved as every person option is. */
export async function assigneeChange(lookups: Lookups, user: string, typed?: TypedOption): Promise<FieldChange> {
  const userId = await lookups.resolve('assignee', user, typed);
  return withLabel('AssignedUser', userId, await lookups.nameOf('assignee', userId));
}

/** Back to an open status: `status` names one (name or ID), by default the status named Open. */
export async function reopenChange(lookups: Lookups, status: string = DEFAULT_REOPEN_STATUS): Promise<FieldChange> {
  const statusId = await lookups.resolve('status', status);
  return withLabel('TicketStatusId', statusId, await lookups.nameOf('status', statusId));
}

function withLabel(field: string, value: FormValue, label: string | undefined): FieldChange {
  return { fields: { [field]: value }, labels: label === undefined ? {} : { [field]: label } };
}

/**
 * What --dry-run shows for a change without reading the ticket: the changed fields only; the
 * note says the others go back as they are.
 */
function changePlan(id: TicketId, change: FieldChange): SendablePlan {
  return {
    ...plans.updateTicket(id, { fields: { Id: id, ...change.fields } }),
    changed: new Set(Object.keys(change.fields)),
    labels: change.labels,
    note: 'every other field is read from the ticket and sent back as it is',
  };
}

/** An ID... command's requests for a change: the plan --dry-run prints, the read-modify-write it sends. */
export function changeRequests(change: FieldChange): Pick<IdCommandSpec, 'plan' | 'send'> {
  return { plan: (id) => changePlan(id, change), send: (client, id) => changeTicket(client, id, change.fields) };
}
