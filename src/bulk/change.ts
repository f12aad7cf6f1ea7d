// Changing fields of a ticket the safe way (docs/service.md 4.4): the update form may treat an absent
// field as "clear it", so the ticket is read and sent back whole with the changes. `tkt update`,
// the everyday changes (assign, reopen) and the triage screen all change tickets through here.
import { tktCommand, type RunPlace } from '../config/session.js';
import { shellWord } from '../util/shell-word.js';
import { plans } from '../api/plans.js';
import type { ApiClient, ApiResponse, FormValue, RequestPlan, TicketId } from '../api/types.js';
import { InterruptedError, OperationError, StoppedBeforeSendingError, TicketStateError, UsageError } from '../errors.js';
import { ME, personLabel, type Lookups, type TypedOption } from '../lookups/types.js';
import { fieldsFor } from '../model/fields.js';
import { isOpenStatusName, isSettledStatusName, readTicket, type Ticket } from '../model/ticket.js';
import { formatDate } from '../output/time.js';
import type { IdCommandSpec } from './id-command.js';
import { currentUpdateForm, mergeUpdateForm, type HeldValue } from '../fields/update-form.js';
import { sameDue } from '../fields/created.js';
import { alreadyAssignedToNote, alreadyHeldNote, alreadyOpenNote } from '../reading/unchanged.js';
import { sanitizeInline } from '../output/sanitize.js';
import { sameId } from '../util/same-id.js';
import { formatValue, labelledValue, type PlannedRequest } from '../cmdutil/dry-run.js';

type Changes = Readonly<Record<string, FormValue>>;

/** Form fields to change, with the names of the looked-up IDs (for --dry-run and messages), else as typed. */
export interface FieldChange {
  fields: Changes;
  labels: Readonly<Record<string, string>>;
}

/** The status `reopen` sets when none is named (docs/cli.md section 10). */
export const DEFAULT_REOPEN_STATUS = 'Open';

/**
 * The form fields of `changes` whose value the ticket, as its update form `before`, does not hold
 * already: a name given was resolved to the ID it is compared with; a field the ticket does not
 * show (the impact) is undefined there, never the same as a value, so always a change; a due
 * date is the same only to the millisecond (not within sameDue's minute), so a relative one
 * (+4h) is a change a moment later.
 */
function changedFields(before: Readonly<Record<string, FormValue>>, changes: Changes): string[] {
  return Object.entries(changes)
    .filter(([field, value]) => !sameId(before[field], value))
    .map(([field]) => field);
}

/**
 * The update that changes `changes` and nothing else: the ticket as it is now, with them on top;
 * `changed`, the form fields of `changes` whose value the ticket does not already hold (what
 * --dry-run marks); `before`, the ticket's update form as read.
 */
async function changePlan(
  client: ApiClient,
  id: TicketId,
  changes: Changes,
): Promise<{ plan: RequestPlan; changed: string[]; current: unknown; before: Record<string, FormValue>; was: Record<string, string> }> {
  const current = (await client.send(plans.getTicket(id))).body;
  const before = currentUpdateForm(id, current);
  const changed = changedFields(before, changes);
  return { current, before, plan: plans.updateTicket(id, mergeUpdateForm(id, current, changes)), changed, was: heldValues(current, before, changed) };
}

/** A field the ticket holds nothing in. */
const isEmpty = (value: FormValue | undefined): boolean => value === undefined || value === null || value === '';

/**
 * The update form requires the requester (docs/service.md 4.4: CreatorId), which a read-modify-write
 * sends back as the ticket holds it: of a ticket without one, the update is refused here, before
 * it is sent (exit 2), rather than by the service (400), asking for the requester it needs.
 */
function assertRequester(id: TicketId, plan: RequestPlan): void {
  if (!isEmpty(plan.form?.fields.CreatorId)) return;
  throw new UsageError(`ticket #${id} shows no requester, and the service's update requires one (CreatorId)`, {
    hint: `give it one with --requester USER (a user ID, username or full name): tkt update ${id} --requester USER`,
  });
}

/** What the ticket holds in `fields`, named as the ticket names its values ("1 (Low)"), for a dry run's "from". */
function heldValues(
  current: unknown,
  form: Readonly<Record<string, FormValue>>,
  fields: readonly string[],
  said: (value: FormValue, name: string | undefined) => string = labelledValue,
): Record<string, string> {
  const ticket = readTicket(current);
  const specs = fieldsFor('update');
  return Object.fromEntries(
    fields.map((field) => {
      const value = form[field];
      if (isEmpty(value)) return [field, 'empty'];
      const spec = specs.find((candidate) => candidate.formField === field);
      const name = spec === undefined ? undefined : ticket.field(spec.key).name;
      return [field, said(value, name === undefined || name === String(value) ? undefined : sanitizeInline(name))];
    }),
  );
}

/**
 * What ticket `id` holds now in each field `tkt update` changes, by form field (HeldValue): said
 * beside each field `tkt update` asks for at a terminal, where the person answers with a name, and
 * what its question starts on, so that Enter keeps it. The due date is said as every date is, in
 * the local time, and kept in ISO 8601 (UTC), which no time zone reads otherwise.
 */
export async function heldNow(client: ApiClient, id: TicketId): Promise<Record<string, HeldValue>> {
  const current = (await client.send(plans.getTicket(id))).body;
  const form = currentUpdateForm(id, current);
  const said = heldValues(
    current,
    form,
    fieldsFor('update').map((spec) => spec.formField),
    (value, name) => name ?? labelledValue(value, undefined),
  );
  const due = readTicket(current).due;
  return Object.fromEntries(
    Object.entries(said).map(([field, text]): [string, HeldValue] => {
      if (field === 'DueDate') return [field, due === undefined ? { said: 'empty' } : { said: formatDate(due), answer: due.toISOString() }];
      const value = form[field];
      return [field, isEmpty(value) ? { said: text } : { said: text, answer: formatValue(value) }];
    }),
  );
}

/** How an update is sent: as it is, or through the command's gate (src/cmdutil/send-change.ts). */
export type ChangeSender = (plan: RequestPlan) => Promise<ApiResponse>;

/**
 * One update: the service's answer (none when nothing was sent), the fields it changed and the
 * due date the ticket had before it.
 */
interface SentChange {
  response: ApiResponse | undefined;
  changed: string[];
  dueBefore: Date | undefined;
}

/**
 * Read-modify-write of one ticket: its current fields plus `changes`; not sent when the ticket, as
 * read, holds every value of `named` already (by default `changes`), as assign and reopen send
 * nothing then.
 */
async function changeTicket(client: ApiClient, id: TicketId, changes: Changes, send: ChangeSender, named: Changes = changes): Promise<SentChange> {
  const { plan, changed, current, before } = await changePlan(client, id, changes);
  const dueBefore = readTicket(current).due;
  if (changedFields(before, named).length === 0) return { response: undefined, changed: [], dueBefore };
  assertRequester(id, plan);
  return { response: await send(plan), changed, dueBefore };
}

/**
 * The ticket read back after an update, and what of `change` it shows it does not hold ("assignee
 * is now Tom Tech, not ohaddad"): named as the ticket names its values, the wanted one by its label.
 */
async function readBack(client: ApiClient, id: TicketId, change: FieldChange): Promise<{ ticket: Ticket; lost: string[] }> {
  const detail = (await client.send(plans.getTicket(id))).body;
  const ticket = readTicket(detail);
  const holds = currentUpdateForm(id, detail);
  const lost: string[] = [];
  for (const spec of fieldsFor('update')) {
    // A field the ticket does not show (the spec leaves most of the detail open) cannot be checked.
    if (!(spec.formField in change.fields) || !ticket.field(spec.key).said) continue;
    const wanted = change.fields[spec.formField];
    if (spec.formField === 'DueDate' ? sameDue(ticket.due, new Date(String(wanted))) : sameId(holds[spec.formField], wanted)) continue;
    const now = spec.formField === 'DueDate' ? ticket.due && formatDate(ticket.due) : ticket.field(spec.key).name;
    lost.push(`${spec.label.toLowerCase()} is now ${now ?? holds[spec.formField] ?? 'empty'}, not ${change.labels[spec.formField] ?? wanted}`);
  }
  return { ticket, lost };
}

/** A read-back given up by the run's first signal (it gives up reads in flight): the change stands, unchecked. */
function doneUnchecked(error: unknown): undefined {
  if (error instanceof StoppedBeforeSendingError) return undefined;
  throw error;
}

/**
 * A read-modify-write that notices a concurrent writer (README, "Scripts changing the same
 * tickets"): the update form has no version check, so another writer's update sent just after
 * this one puts back the values it read. Once `attempt` has sent its update (`sent` says so), the
 * ticket is read back; a change it does not hold is made once more from a fresh read, and lost
 * again, fails naming what the ticket now holds.
 */
export async function keptChange<T>(
  client: ApiClient,
  id: TicketId,
  change: FieldChange,
  attempt: () => Promise<T>,
  sent: (outcome: T) => boolean,
  kept?: (ticket: Ticket) => void,
): Promise<T> {
  for (let tries = 1; ; tries++) {
    const outcome = await attempt();
    if (!sent(outcome)) return outcome;
    const checked = await readBack(client, id, change).catch(doneUnchecked);
    // Stopped while it was read back: the change was made, and is told so, unchecked.
    if (checked === undefined) return outcome;
    const { ticket, lost } = checked;
    if (lost.length === 0) {
      kept?.(ticket);
      return outcome;
    }
    if (tries === 2) throw new OperationError(`changed by someone else meanwhile: ${lost.join(', ')}; run it again`);
  }
}

/**
 * A priority change makes the service recompute the due date from the SLA (docs/service.md 4.4): a due
 * date sent with it would be lost, so it goes in a second update, once the priority is set.
 */
function splitDueAfterPriority(changes: Changes): { first: Changes; due?: FormValue } {
  const { DueDate: due, ...first } = changes;
  return due !== undefined && 'TicketPriorityId' in changes ? { first, due } : { first: changes };
}

/**
 * The updates `tkt update` would send for `changes`, with the ticket as it is now: one, or two
 * (see above). The second is the first with the due date: the real run reads the ticket again
 * between them, and sends whatever else the service changed with the priority (the SLA's due date
 * aside) back as it finds it.
 */
export async function plannedUpdates(client: ApiClient, id: TicketId, changes: Changes, labels: Readonly<Record<string, string>>): Promise<PlannedRequest[]> {
  const { first, due } = splitDueAfterPriority(changes);
  const { plan, changed, current, before, was } = await changePlan(client, id, first);
  const planned = { ...plan, labels, changed: new Set(changed), was };
  // Every value given held already, the due date too: a real run sends nothing, and says so.
  if (changedFields(before, changes).length === 0) return [{ ...planned, unchanged: alreadyHeldNote() }];
  assertRequester(id, plan);
  if (due === undefined) return [planned];
  // The due date the first update leaves is the SLA's, unknown before it is sent: always a change.
  const then = plans.updateTicket(id, { ...plan.form?.fields, DueDate: due });
  return [planned, { ...then, labels, changed: new Set(['DueDate']), was: heldValues(current, currentUpdateForm(id, current), ['DueDate']) }];
}

/** A due date the service moved when the priority changed (its SLA), the update naming none. */
export interface MovedDue {
  was: Date | undefined;
  now: Date | undefined;
}

/** What `tkt update`'s change did. */
export interface UpdateOutcome {
  /** The first update's answer; none when the ticket held every value given already and nothing was sent. */
  response: ApiResponse | undefined;
  /** The form fields whose value the ticket did not hold already: none, and the update changed nothing. */
  changed: string[];
  movedDue?: MovedDue;
}

/**
 * Sends `tkt update`'s change; fails when the service keeps its own due date, or when `send`
 * refuses the second update (the run stopped): the first one was made. `run`: where the run
 * looked, for the command line of a hint.
 */
export async function updateTicket(
  client: ApiClient,
  id: TicketId,
  change: FieldChange,
  run: RunPlace,
  send: ChangeSender = (plan) => client.send(plan),
): Promise<UpdateOutcome> {
  const { first, due } = splitDueAfterPriority(change.fields);
  let after: Ticket | undefined;
  const sent = await keptChange(
    client,
    id,
    { ...change, fields: first },
    // Not sent when the ticket holds every value given, the due date sent apart too.
    () => changeTicket(client, id, first, send, change.fields),
    (outcome) => outcome.response !== undefined,
    (ticket) => (after = ticket),
  );
  if (sent.response === undefined) return { response: undefined, changed: [] };
  if (due !== undefined) {
    await setDueAfterPriority(client, id, due, run, send);
    return { response: sent.response, changed: [...new Set([...sent.changed, 'DueDate'])] };
  }
  // A new priority with no due date given: the service recomputes the due date from its SLA (docs/service.md 4.4).
  const now = after?.due;
  const moved =
    sent.changed.includes('TicketPriorityId') && after !== undefined && (now === undefined ? sent.dueBefore !== undefined : !sameDue(sent.dueBefore, now));
  return { response: sent.response, changed: sent.changed, ...(moved ? { movedDue: { was: sent.dueBefore, now } } : {}) };
}

/** A dry run's word for planned updates that change the priority and name no due date; undefined for others. */
export function dueMayMove(planned: readonly PlannedRequest[], named: string): string | undefined {
  const first = planned[0];
  if (planned.length !== 1 || first?.changed?.has('TicketPriorityId') !== true) return undefined;
  return dueMayMoveText(named);
}

/** What a change of the priority that names no due date may do to the due date; `named`: what keeps one. */
export function dueMayMoveText(named: string): string {
  return `the service may recompute the due date from the SLA of the new priority; ${named} keeps one`;
}

/** `the service moved its due date from 2026-12-20 09:00 to 2026-11-27 13:00 (the SLA of the new priority)`. */
export function movedDueText(due: MovedDue, dated: (date: Date) => string = formatDate): string {
  const sla = '(the SLA of the new priority)';
  // Never both undefined: the due date moved.
  if (due.was === undefined) return `the service set its due date to ${dated(due.now!)} ${sla}`;
  if (due.now === undefined) return `the service cleared its due date of ${dated(due.was)} ${sla}`;
  return `the service moved its due date from ${dated(due.was)} to ${dated(due.now)} ${sla}`;
}

/** The second update of `--priority P --due WHEN`; says so when the service still keeps its own. */
async function setDueAfterPriority(client: ApiClient, id: TicketId, due: FormValue, run: RunPlace, send: ChangeSender): Promise<void> {
  const retry = `"${tktCommand(run, `update ${id} --due ${shellWord(String(due))}`)}"`;
  await changeTicket(client, id, { DueDate: due }, send).catch((error: unknown) => {
    if (!(error instanceof StoppedBeforeSendingError)) throw error;
    throw new InterruptedError(`ticket #${id}: the priority changed, but the due date was not sent: ${error.how}`, { hint: `to set it, run ${retry}` });
  });
  const checked = await readBack(client, id, { fields: { DueDate: due }, labels: {} }).catch(doneUnchecked);
  if (checked === undefined) return;
  const { ticket, lost } = checked;
  if (lost.length === 0) return;
  const kept = ticket.due;
  const wanted = new Date(String(due));
  throw new OperationError(
    `ticket #${id}: the priority changed, but the service keeps the due date ${kept === undefined ? 'empty' : formatDate(kept)}, not ${formatDate(wanted)}`,
    {
      details: ['the service sets the due date from the SLA of the priority, and did not take the one given'],
      hint: `try ${retry} alone; if the SLA still wins, the due date is the service's to set`,
    },
  );
}

/** What a change needs besides its value: the option it came from, and whether to name it (for --dry-run). */
export interface ChangeOptions {
  typed?: TypedOption;
  /** Name the looked-up ID (--dry-run, triage's status line): may load a lookup list a real run would not. */
  labels: boolean;
  /** How a hint names the commands (the MCP tools name their tools); by default tkt's. */
  named?: CommandNames;
}

/** The commands a hint of reopen names. */
export interface CommandNames {
  resolveOrClose: string;
  /** What sets the status of an open ticket. */
  setStatus: string;
}

const CLI_NAMES: CommandNames = { resolveOrClose: 'tkt resolve or tkt close', setStatus: 'tkt update --status' };

/** A new assignee: `user` is a user ID, username, full name or @me, resolved as every person option is. */
async function assigneeChange(lookups: Lookups, user: string, options: ChangeOptions): Promise<FieldChange> {
  const userId = await lookups.resolve('assignee', user, options.typed);
  return withLabel('AssignedUser', userId, options.labels ? await lookups.nameOf('assignee', userId) : user.trim());
}

/**
 * assign's request (`tkt assign`, the assign tool), and who it names in its confirmation: you for
 * @me, else the user as the service's list names them ("Omar Haddad (ohaddad)"), however typed:
 * names match by prefix, so the line is where a wrong match shows. Any user but @me was matched
 * in that list, loaded already: naming them sends nothing more.
 */
export async function assignRequest(
  lookups: Lookups,
  user: string,
  options: ChangeOptions,
): Promise<Pick<IdCommandSpec, 'plan' | 'keep'> & { assignee: string }> {
  const change = await assigneeChange(lookups, user, options);
  const named = async () => {
    const entry = (await lookups.entries('assignee')).find((e) => sameId(e.id, change.fields.AssignedUser));
    // Text from the service, made safe to print.
    return sanitizeInline(entry === undefined ? user.trim() : personLabel(entry));
  };
  const assignee = user.trim().toLowerCase() === ME ? 'you' : await named();
  return { assignee, ...changeRequest(change, alreadyAssignedToNote(assignee)) };
}

/** Back to an open status: `status` names one (name or ID), by default the status named Open. */
export async function reopenChange(lookups: Lookups, status: string | undefined, options: ChangeOptions): Promise<FieldChange> {
  const named = status ?? DEFAULT_REOPEN_STATUS;
  const statusId = await lookups.resolve('status', named);
  // A status given by name is checked against its list (loaded for the name); one by ID is sent as given, with no look-up.
  const byName = status !== undefined && !/^\s*\d+\s*$/.test(status);
  const serviceName = byName || options.labels ? await lookups.nameOf('status', statusId) : undefined;
  // `reopen --status Resolved` set the status and said "reopened".
  if (byName && serviceName !== undefined && isSettledStatusName(serviceName)) {
    throw new UsageError(`--status ${serviceName} is not an open status: a re-opened ticket needs one (default ${DEFAULT_REOPEN_STATUS})`, {
      hint: `to resolve or close tickets, use ${(options.named ?? CLI_NAMES).resolveOrClose}`,
    });
  }
  return withLabel('TicketStatusId', statusId, options.labels ? serviceName : named.trim());
}

/**
 * reopen's request (`tkt reopen`, the reopen tool): a ticket already in the status is said to be,
 * the status named as the service names it, however it was typed (`--status op` is "Open"). The
 * name is looked up only for such a ticket: the status list is loaded already unless the status
 * was given by ID.
 */
export async function reopenRequest(lookups: Lookups, status: string | undefined, options: ChangeOptions): Promise<Pick<IdCommandSpec, 'plan' | 'keep'>> {
  const change = await reopenChange(lookups, status, options);
  const statusId = String(change.fields.TicketStatusId);
  // Without labels, the label is the status as typed, not as the service names it.
  const statusName = async () => (options.labels ? change.labels.TicketStatusId : undefined) ?? (await lookups.nameOf('status', statusId)) ?? statusId;
  const named = options.named ?? CLI_NAMES;
  // An open ticket in another status is no re-open: it answered "reopened" and set an In Progress ticket to Open.
  const refuse = (current: unknown, id: TicketId) => {
    const ticket = readTicket(current);
    // Refused only for a status known to be open: one that names none, or a name tkt cannot
    // place (a service names its statuses), is sent, and the service decides.
    if (ticket.settled || ticket.status === undefined || !isOpenStatusName(ticket.status)) return;
    throw new TicketStateError(
      id,
      `is ${sanitizeInline(ticket.status)}, not resolved or closed: nothing to re-open`,
      'not resolved or closed, nothing to re-open',
      {
        hint: `to set the status of an open ticket, use ${named.setStatus}`,
      },
    );
  };
  return changeRequest(change, async () => alreadyOpenNote(status === undefined ? undefined : await statusName()), refuse);
}

function withLabel(field: string, value: FormValue, label: string | undefined): FieldChange {
  return { fields: { [field]: value }, labels: label === undefined ? {} : { [field]: label } };
}

/**
 * An ID... command's request for a change: the read-modify-write, sent and printed by --dry-run
 * alike. With `alreadyNote`, a ticket that already has the change is marked unchanged with it
 * (made when needed, for a note that needs a look-up); `refuse` throws for a ticket, as read,
 * that the change is not for (reopen of an In Progress ticket).
 */
export function changeRequest(
  change: FieldChange,
  alreadyNote?: string | (() => Promise<string>),
  refuse?: (current: unknown, id: TicketId) => void,
): Pick<IdCommandSpec, 'plan' | 'keep'> {
  return {
    keep: (client, id, attempt, sent) => keptChange(client, id, change, attempt, sent),
    plan: async (id, api) => {
      const { plan, changed, current, was } = await changePlan(await api(), id, change.fields);
      if (changed.length > 0) {
        refuse?.(current, id);
        assertRequester(id, plan);
      }
      const unchanged = changed.length > 0 || alreadyNote === undefined ? undefined : typeof alreadyNote === 'string' ? alreadyNote : await alreadyNote();
      return {
        ...plan,
        changed: new Set(changed),
        labels: change.labels,
        was,
        ...(unchanged === undefined ? {} : { unchanged }),
      };
    },
  };
}
