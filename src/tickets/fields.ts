// The one table of ticket fields: CLI option <-> form field <-> lookup kind <-> the
// name in a ticket detail. create, update and create --from all read it, so an
// option means the same thing everywhere and a new field is added in one place.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { FormValue, MultipartInput } from '../api/types.js';
import { field, isObject } from '../api/fields.js';
import { UsageError } from '../errors.js';
import { LookupError, lookupLabel } from '../lookups/index.js';
import type { LookupKind, Lookups, TypedOption } from '../lookups/types.js';
import { parseWholeNumber } from '../util/ids.js';
import { collect } from '../util/option-text.js';
import { parseWhen } from '../util/when.js';

/** register (spec 4.3), new (4.15), update (4.4). */
export type TicketEndpoint = 'register' | 'new' | 'update';

export type FieldValueType =
  /** A lookup name or ID, sent as its ID. */
  | { type: 'lookup'; kind: LookupKind; as?: undefined }
  /** A person (ID, username or full name), sent as their username (integration endpoints). */
  | { type: 'lookup'; kind: 'requester' | 'assignee'; as: 'username' }
  /** A numeric ID with no lookup collection to name it (SLA, service, impact, urgency). */
  | { type: 'id' }
  /** Repeatable numeric IDs sent as repeated form fields (SelectedTags). */
  | { type: 'ids' }
  | { type: 'text'; maxLength?: number }
  | { type: 'when' }
  | { type: 'ticketType' }
  /** Paths sent as `Uploads` parts, not as a form field. */
  | { type: 'files' };

export interface TicketFieldSpec {
  /** commander's attribute name for the option, and the column name in a --from file. */
  key: string;
  flags: string;
  description: string;
  /** Form field name; empty for `files`. */
  formField: string;
  value: FieldValueType;
  endpoints: readonly TicketEndpoint[];
  /** Where the current value sits in a ticket detail: flat names, else `<nested>.id`. */
  detail?: { names: readonly string[]; nested?: string };
}

const ALL: readonly TicketEndpoint[] = ['register', 'new', 'update'];
const REGISTER_UPDATE: readonly TicketEndpoint[] = ['register', 'update'];
export const TITLE_MAX_LENGTH = 255;

/**
 * Why `text` is longer than the service takes, or undefined. The service (ASP.NET) counts
 * UTF-16 code units, so an emoji counts 2: 128 of them are 256, over a limit of 255.
 */
export function lengthProblem(text: string, max: number): string | undefined {
  if (text.length <= max) return undefined;
  const characters = [...text].length;
  const counted = characters === text.length ? '' : ` (counted as the service counts, in UTF-16 units: ${characters} characters, some count 2)`;
  return `${text.length} characters${counted}, the service accepts at most ${max}`;
}
/** TicketType 1 = Ticket (spec 2.4); the other values are not published, so they go by number. */
const TICKET_TYPES: Readonly<Record<string, number>> = { ticket: 1 };

function lookupField(key: string, formField: string, kind: LookupKind, endpoints: readonly TicketEndpoint[], nested: string, description: string): TicketFieldSpec {
  const flat = formField.charAt(0).toLowerCase() + formField.slice(1);
  return { key, flags: `--${key} <name|id>`, description, formField, value: { type: 'lookup', kind }, endpoints, detail: { names: [flat], nested } };
}

function idField(key: string, formField: string, endpoints: readonly TicketEndpoint[], description: string): TicketFieldSpec {
  const flat = formField.charAt(0).toLowerCase() + formField.slice(1);
  return { key, flags: `--${key} <id>`, description, formField, value: { type: 'id' }, endpoints, detail: { names: [flat] } };
}

export const TICKET_FIELDS: readonly TicketFieldSpec[] = [
  { key: 'title', flags: '--title <text>', description: `subject (at most ${TITLE_MAX_LENGTH} characters)`, formField: 'Title', value: { type: 'text', maxLength: TITLE_MAX_LENGTH }, endpoints: ['register', 'new'] },
  { key: 'description', flags: '--description <text>', description: 'description text, or - to read stdin', formField: 'Description', value: { type: 'text' }, endpoints: ['register', 'new'] },
  lookupField('requester', 'CreatorId', 'requester', REGISTER_UPDATE, 'creator', 'requester: user ID, username or full name'),
  { key: 'requester', flags: '--requester <username>', description: 'requester: user ID, username or full name (sent as the username)', formField: 'Requester', value: { type: 'lookup', kind: 'requester', as: 'username' }, endpoints: ['new'] },
  { key: 'email', flags: '--email <address>', description: 'requester e-mail, helps the service match the requester (--integration)', formField: 'Email', value: { type: 'text' }, endpoints: ['new'] },
  lookupField('site', 'SiteId', 'site', ALL, 'site', 'site name or ID'),
  lookupField('department', 'DepartmentId', 'department', ALL, 'department', 'department name or ID'),
  lookupField('status', 'TicketStatusId', 'status', ALL, 'status', 'status name or ID'),
  lookupField('priority', 'TicketPriorityId', 'priority', ALL, 'priority', 'priority name or ID'),
  lookupField('category', 'TicketCategoryId', 'category', ALL, 'category', 'category name or ID'),
  lookupField('subcategory', 'TicketSubCategoryId', 'subcategory', REGISTER_UPDATE, 'subCategory', 'sub-category name or ID'),
  lookupField('item', 'ItemId', 'item', REGISTER_UPDATE, 'item', 'item (CI) name or ID'),
  lookupField('group', 'GroupId', 'group', ALL, 'group', 'group name or ID'),
  lookupField('level', 'TierLevelId', 'level', ALL, 'level', 'tier level name or ID'),
  lookupField('client', 'ClientId', 'client', ALL, 'client', 'client name or ID'),
  lookupField('assignee', 'AssignedUser', 'assignee', REGISTER_UPDATE, 'assignee', 'technician: user ID, username, full name, or @me'),
  { key: 'type', flags: '--type <type>', description: 'ticket type: "ticket" or a numeric type (create defaults to ticket)', formField: 'TicketType', value: { type: 'ticketType' }, endpoints: REGISTER_UPDATE, detail: { names: ['ticketType'] } },
  idField('sla', 'SLAId', ['register'], 'SLA ID (chosen by the service when omitted)'),
  idField('service', 'ServiceId', REGISTER_UPDATE, 'service ID'),
  idField('impact', 'ImpactId', REGISTER_UPDATE, 'impact ID'),
  idField('urgency', 'UrgencyId', REGISTER_UPDATE, 'urgency ID'),
  { key: 'due', flags: '--due <when>', description: 'due date: ISO 8601 or +3d/+4h/+30m (an SLA may override it)', formField: 'DueDate', value: { type: 'when' }, endpoints: REGISTER_UPDATE, detail: { names: ['dueDate'] } },
  { key: 'cc', flags: '--cc <emails>', description: 'CC e-mail addresses', formField: 'Cc', value: { type: 'text' }, endpoints: ['register'] },
  { key: 'tag', flags: '--tag <id>', description: 'tag ID (repeatable)', formField: 'SelectedTags', value: { type: 'ids' }, endpoints: ['register'] },
  { key: 'guid', flags: '--guid <guid>', description: 'external GUID (generated by the service when omitted)', formField: 'Guid', value: { type: 'text' }, endpoints: ['register'] },
  { key: 'attach', flags: '--attach <file>', description: 'attach a file (repeatable; the service silently skips file types it does not allow)', formField: '', value: { type: 'files' }, endpoints: ['register', 'new'] },
];

/** What the user gave, as text, by option key: commander's options or a --from row. */
export type RawFieldValues = Record<string, string | readonly string[] | undefined>;

const REQUIRED: Readonly<Record<TicketEndpoint, readonly string[]>> = {
  register: ['title', 'description', 'requester', 'site', 'department', 'status'],
  new: ['title', 'description', 'requester'],
  update: [],
};

export function fieldsFor(endpoint: TicketEndpoint): TicketFieldSpec[] {
  return TICKET_FIELDS.filter((spec) => spec.endpoints.includes(endpoint));
}

export function flagOf(key: string): string {
  return `--${key}`;
}

function isGiven(value: string | readonly string[] | undefined): boolean {
  if (value === undefined) return false;
  return typeof value === 'string' ? value !== '' : value.length > 0;
}

/** The option keys in `values` that hold something. */
export function givenKeys(values: RawFieldValues): string[] {
  return Object.keys(values).filter((key) => isGiven(values[key]));
}

/** Required options of `endpoint` that `values` lacks, as flags, in the table's order. */
export function missingRequired(endpoint: TicketEndpoint, values: RawFieldValues): string[] {
  return REQUIRED[endpoint].filter((key) => !isGiven(values[key])).map(flagOf);
}

/** Refuses options the endpoint does not take, e.g. --subcategory with --integration. */
export function assertFieldsApply(endpoint: TicketEndpoint, values: RawFieldValues, context: string): void {
  const known = new Set(fieldsFor(endpoint).map((spec) => spec.key));
  const foreign = givenKeys(values).filter((key) => !known.has(key));
  if (foreign.length > 0) {
    throw new UsageError(`${foreign.map(flagOf).join(', ')} cannot be used with ${context}`);
  }
}

/**
 * Adds every field option of the given endpoints to a command, each flag once. Their values are
 * typed by this table (pickFieldValues), not by commander: the command's own options stay typed.
 */
export function addFieldOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
  endpoints: readonly TicketEndpoint[],
): Command<Args, Opts, Globals> {
  const seen = new Set<string>();
  for (const spec of TICKET_FIELDS) {
    if (seen.has(spec.key) || !spec.endpoints.some((e) => endpoints.includes(e))) continue;
    seen.add(spec.key);
    const repeatable = spec.value.type === 'ids' || spec.value.type === 'files';
    // No default value: commander would print "(default: [])" in the help.
    if (repeatable) command.option(spec.flags, spec.description, collect);
    else command.option(spec.flags, spec.description);
  }
  return command;
}

/** The field option values out of commander's parsed options. */
export function pickFieldValues(opts: object): RawFieldValues {
  const values: RawFieldValues = {};
  for (const spec of TICKET_FIELDS) {
    const value: unknown = (opts as Record<string, unknown>)[spec.key];
    if (typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'))) values[spec.key] = value;
  }
  return values;
}

/** A field checked locally and ready to be resolved (lookups) or sent as is. */
interface CheckedField {
  spec: TicketFieldSpec;
  /** The text to resolve through the lookups (lookup fields only). */
  lookupText?: string;
  value?: FormValue;
  files?: string[];
}

export interface CheckedFields {
  endpoint: TicketEndpoint;
  fields: CheckedField[];
}

function asList(value: string | readonly string[]): string[] {
  return typeof value === 'string' ? [value] : [...value];
}

function asText(value: string | readonly string[]): string {
  return typeof value === 'string' ? value : value.join(',');
}

/**
 * Checks every given value without any request: lengths, IDs, dates, types.
 * All problems are reported together (exit 2). Required options are not checked here.
 */
export function checkFields(endpoint: TicketEndpoint, values: RawFieldValues, now: Date): CheckedFields {
  const problems: string[] = [];
  const fields: CheckedField[] = [];
  for (const spec of fieldsFor(endpoint)) {
    const raw = values[spec.key];
    if (raw === undefined || !isGiven(raw)) continue;
    const flag = flagOf(spec.key);
    const kind = spec.value;
    switch (kind.type) {
      case 'lookup':
        fields.push({ spec, lookupText: asText(raw).trim() });
        break;
      case 'id': {
        const id = parseWholeNumber(asText(raw), { min: 1 });
        if (id === undefined) problems.push(`${flag}: invalid ID ${JSON.stringify(asText(raw))}: expected a positive whole number`);
        else fields.push({ spec, value: id });
        break;
      }
      case 'ids': {
        const ids = asList(raw).flatMap((text) => text.split(',')).map((text) => ({ text, id: parseWholeNumber(text, { min: 1 }) }));
        const bad = ids.filter((entry) => entry.id === undefined).map((entry) => JSON.stringify(entry.text));
        if (bad.length > 0) problems.push(`${flag}: invalid ID ${bad.join(', ')}: expected a positive whole number`);
        else fields.push({ spec, value: ids.map((entry) => entry.id as number) });
        break;
      }
      case 'text': {
        const text = asText(raw);
        const tooLong = kind.maxLength === undefined ? undefined : lengthProblem(text, kind.maxLength);
        if (tooLong !== undefined) {
          problems.push(`${flag}: ${tooLong}`);
        } else fields.push({ spec, value: text });
        break;
      }
      case 'when':
        try {
          fields.push({ spec, value: parseWhen(asText(raw), now).toISOString() });
        } catch (error) {
          problems.push(`${flag}: ${(error as Error).message}`);
        }
        break;
      case 'ticketType': {
        const text = asText(raw).trim().toLowerCase();
        const type = TICKET_TYPES[text] ?? parseWholeNumber(text, { min: 1 });
        if (type === undefined) problems.push(`${flag}: unknown ticket type ${JSON.stringify(asText(raw))}: use "ticket" or a numeric type`);
        else fields.push({ spec, value: type });
        break;
      }
      case 'files':
        fields.push({ spec, files: asList(raw) });
        break;
    }
  }
  if (problems.length === 1) throw new UsageError(problems[0]!);
  if (problems.length > 1) throw new UsageError('invalid options', { details: problems });
  return { endpoint, fields };
}

export interface ResolvedFields {
  form: MultipartInput;
  /** Display names of looked-up values by form field, e.g. SiteId -> "Head Office"; empty unless asked for. */
  labels: Record<string, string>;
}

/**
 * Turns checked fields into the form: names become IDs through the lookups (exit 2 when unknown).
 * `labels` (for --dry-run only) names the IDs: that loads the lookups even for IDs typed as
 * digits, which otherwise go out without a request.
 */
export async function resolveFields(checked: CheckedFields, lookups: Lookups, options: { labels: boolean }): Promise<ResolvedFields> {
  const fields: Record<string, FormValue> = {};
  const labels: Record<string, string> = {};
  const files: string[] = [];
  // Sequential: each kind loads its lookup once and the next one hits the cache.
  for (const entry of checked.fields) {
    if (entry.files !== undefined) files.push(...entry.files);
    else if (entry.spec.value.type === 'lookup' && entry.lookupText !== undefined) {
      const kind = entry.spec.value.kind;
      const label = lookupLabel(kind);
      // "unknown site" already names --site; "unknown sub-category" must name --subcategory.
      const typed = label === entry.spec.key ? undefined : { flag: `--${entry.spec.key}`, noun: label };
      if (entry.spec.value.as === 'username') {
        fields[entry.spec.formField] = await usernameOf(entry.spec.value.kind, entry.lookupText, checked, lookups, typed);
        continue;
      }
      const id = await lookups.resolve(kind, entry.lookupText, typed);
      fields[entry.spec.formField] = id;
      if (!options.labels) continue;
      const name = await lookups.nameOf(kind, id);
      if (name !== undefined) labels[entry.spec.formField] = name;
    } else fields[entry.spec.formField] = entry.value;
  }
  return { form: files.length > 0 ? { fields, files } : { fields }, labels };
}

/**
 * A person sent as a username. One the lookups do not know is still sent as typed when an
 * e-mail comes with it: the integration endpoint matches the requester by e-mail too (spec
 * 4.15), so only the service can tell.
 */
async function usernameOf(kind: 'requester' | 'assignee', text: string, checked: CheckedFields, lookups: Lookups, typed: TypedOption | undefined): Promise<string> {
  try {
    return await lookups.username(kind, text, typed);
  } catch (error) {
    const withEmail = checked.fields.some((entry) => entry.spec.key === 'email');
    if (error instanceof LookupError && error.reason === 'unknown' && withEmail) return text;
    throw error;
  }
}

/** The current value of a field in a ticket detail, read without regard to case. */
export function currentValue(detail: unknown, spec: TicketFieldSpec): FormValue {
  if (spec.detail === undefined) return undefined;
  const flat = field(detail, ...spec.detail.names);
  if (typeof flat === 'string' || typeof flat === 'number' || typeof flat === 'boolean') return flat;
  if (spec.detail.nested !== undefined) {
    const nested = field(detail, spec.detail.nested);
    const id = isObject(nested) ? field(nested, 'id') : undefined;
    if (typeof id === 'string' || typeof id === 'number') return id;
  }
  return undefined;
}

/**
 * The full update form (read-modify-write): every current value of the ticket plus the
 * changes, so a server that clears absent fields never loses one the user did not name.
 */
export function mergeUpdateForm(ticketId: number, detail: unknown, changes: Record<string, FormValue>): Record<string, FormValue> {
  const form: Record<string, FormValue> = { Id: ticketId };
  for (const spec of fieldsFor('update')) {
    if (spec.formField === '') continue;
    form[spec.formField] = spec.formField in changes ? changes[spec.formField] : currentValue(detail, spec);
  }
  const template = field(detail, 'templateId');
  if (typeof template === 'string' && template !== '') form.TemplateId = template;
  return form;
}
