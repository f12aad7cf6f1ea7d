// Creating a ticket, the steps `tkt create` and every row of `tkt create --from` share: which
// endpoint, what is wrong with the values before any request, the request once names are
// resolved, and how the answer names the new ticket.
import { tktCommand, type RunPlace } from '../config/session.js';
import { plans } from '../api/plans.js';
import type { ApiClient, ApiResponse } from '../api/types.js';
import type { Context } from '../context/context.js';
import { InterruptedError, OperationError, TktError, UsageError, whatHappened } from '../errors.js';
import type { Lookups } from '../lookups/types.js';
import { TICKET_MEMBER_ALIASES, readListItem, readTicket } from '../model/ticket.js';
import { formatDate } from '../output/time.js';
import { shellWord } from '../util/shell-word.js';
import type { PlannedRequest } from '../cmdutil/dry-run.js';
import { badValuesError, checkEachField, resolveFields, type CheckedFields, type FileOptions } from './values.js';
import { missingRequired, type RawFieldValues } from './options.js';
import { assertReadableUploads } from '../cmdutil/upload-files.js';

export type CreateEndpoint = 'register' | 'new';

/** register (on someone's behalf) or, for --integration, new. */
export function createEndpoint(integration: boolean | undefined): CreateEndpoint {
  return integration ? 'new' : 'register';
}

export interface CreateCheck {
  /** The good values, all of them when badValues is undefined (a row's names are resolved all the same). */
  checked: CheckedFields;
  /** What is wrong with the values (exit 2). */
  badValues: UsageError | undefined;
  /** The attachments that cannot be read (exit 2). */
  unreadableFiles: UsageError | undefined;
  /** The required options not given (a terminal may still ask for them). */
  missing: string[];
}

/**
 * Everything about a create that can be checked without the network. `filesFlag` names the
 * attachments in messages; `filesIn` is where their relative paths are found.
 */
export async function checkCreate(
  endpoint: CreateEndpoint,
  values: RawFieldValues,
  now: Date,
  filesFlag: string,
  options: FileOptions = {},
): Promise<CreateCheck> {
  const { checked, problems } = checkEachField(endpoint, values, now, options);
  const files = checked.fields.flatMap((field) => field.files ?? []);
  const unreadable = await usageProblem(() => assertReadableUploads(files, filesFlag));
  return {
    checked,
    badValues: badValuesError(problems),
    unreadableFiles: unreadable instanceof UsageError ? unreadable : undefined,
    missing: missingRequired(endpoint, values),
  };
}

/** The result of `check`, or the UsageError it threw; any other error is thrown on. */
async function usageProblem<T>(check: () => Promise<T>): Promise<T | UsageError> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
}

/** The request that creates the ticket, its names resolved to IDs (labelled for people when `labels`). */
export async function createRequest(endpoint: CreateEndpoint, checked: CheckedFields, lookups: Lookups, options: { labels: boolean }): Promise<PlannedRequest> {
  const { form, labels, people } = await resolveFields(checked, lookups, options);
  // TicketType is required by register; 1 = Ticket is the only published type.
  if (endpoint === 'register') form.fields.TicketType ??= 1;
  return { ...(endpoint === 'new' ? plans.newTicket(form) : plans.register(form)), labels, people };
}

/**
 * The new ticket's ID, from the body. A Location header counts only for a body that names
 * no ID, and only when it points to the same service: a proxy or a hostile service naming
 * another host must not decide which ticket a script goes on to change.
 */
export function createdId(response: ApiResponse): string | undefined {
  return wholeNumber(readListItem(response.body).id) ?? sameServiceLocationId(response);
}

/** The new ticket's ID; an answer that names none is an error (the ticket may exist all the same). */
export function requireCreatedId(response: ApiResponse, run: RunPlace): string {
  const found = createdId(response);
  if (found === undefined) {
    throw new OperationError(`the service answered HTTP ${response.status} but named no ticket ID`, {
      hint: `check with "${tktCommand(run, 'list --view all-my-tickets')}"`,
    });
  }
  return found;
}

/**
 * The answer to a create with the new ticket in it, for --json (and --fields, --query) to print:
 * the service's own, or for one that gave only the ticket's address (an empty body beside its
 * Location header), the ticket read from there, the document the spec's 201 carries. A read that
 * fails fails the run (exit 1), saying that the ticket was created.
 */
export async function withCreatedTicket(client: ApiClient, response: ApiResponse, run: RunPlace): Promise<ApiResponse> {
  const id = response.body === undefined ? createdId(response) : undefined;
  if (id === undefined) return response;
  try {
    return { ...response, body: (await client.send(plans.getTicket(Number(id)))).body };
  } catch (error) {
    if (error instanceof InterruptedError || !(error instanceof TktError)) throw error;
    throw new OperationError(`ticket #${id} was created, but reading it back failed (the service answered with its address only)`, {
      details: [whatHappened(error)],
      hint: `do not create it again: "${tktCommand(run, `show ${id} --json`)}" shows it`,
      cause: error,
    });
  }
}

/**
 * `Created ticket #ID`; -q the ID; --json the service's answer, as it came: one that names no
 * ticket fails the run after it all the same, as the other outputs do.
 */
export async function printCreated(ctx: Context, response: ApiResponse): Promise<void> {
  const id = () => requireCreatedId(response, ctx);
  await ctx.output.document(response.body, {
    human: () => `Created ticket #${id()}\n`,
    quiet: () => `${id()}\n`,
    aliases: TICKET_MEMBER_ALIASES,
  });
  // --json printed the answer whole: one naming no ticket fails here, as -q and the line failed above.
  requireCreatedId(response, ctx);
}

function sameServiceLocationId(response: ApiResponse): string | undefined {
  const location = response.headers.location;
  const header = Array.isArray(location) ? location[0] : location;
  if (header === undefined) return undefined;
  let target: URL;
  try {
    target = new URL(header, response.url);
  } catch {
    return undefined;
  }
  if (target.origin !== new URL(response.url).origin) return undefined;
  return wholeNumber(target.pathname.replace(/\/+$/, '').split('/').pop());
}

function wholeNumber(value: unknown): string | undefined {
  return typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value)) ? String(value) : undefined;
}

// The service may store the due date to the second or the minute.
const DUE_TOLERANCE_MS = 60_000;

/** Whether the service holds the due date `wanted` (to its precision). */
export function sameDue(kept: Date | undefined, wanted: Date): boolean {
  return kept !== undefined && Math.abs(kept.getTime() - wanted.getTime()) < DUE_TOLERANCE_MS;
}

/** A new ticket's due date that the service set in place of the one sent. */
export interface ReplacedDue {
  /** As sent (ISO 8601), for the command that sets it again. */
  sent: string;
  /** The service's; undefined when it set none. */
  kept: Date | undefined;
}

/**
 * The due date the service gave a new ticket in place of the one sent: register takes DueDate,
 * but the SLA's wins when one applies (docs/service.md 4.3), with no word of it. Read from the
 * answer, else from the ticket read back; undefined when it kept it, none was sent, or the
 * read-back failed (the ticket exists whatever this finds).
 */
export async function replacedDue(client: ApiClient, request: PlannedRequest, response: ApiResponse, id: string | undefined): Promise<ReplacedDue | undefined> {
  const sent = request.form?.fields.DueDate;
  if (sent === undefined || id === undefined) return undefined;
  let kept = readTicket(response.body).due;
  if (kept === undefined) {
    try {
      kept = readTicket((await client.send(plans.getTicket(Number(id)))).body).due;
    } catch {
      return undefined;
    }
  }
  return sameDue(kept, new Date(String(sent))) ? undefined : { sent: String(sent), kept };
}

/** `the service set its due date to 2026-11-27 09:00 (its SLA), not 2026-11-29 09:00`. */
export function replacedDueText(due: ReplacedDue): string {
  const kept = due.kept === undefined ? 'none' : formatDate(due.kept);
  return `the service set its due date to ${kept} (its SLA), not ${formatDate(new Date(due.sent))}`;
}

/** The command that sets the due date given again: an update that leaves the priority keeps it (docs/service.md 4.4). */
export function keepDueCommand(run: RunPlace, id: string | number, due: ReplacedDue): string {
  return tktCommand(run, `update ${id} --due ${shellWord(due.sent)}`);
}
