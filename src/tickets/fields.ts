// The one table of ticket fields: CLI option <-> form field <-> lookup kind <-> where a ticket
// detail holds it <-> how a person is asked for it <-> its name on screen. create, update,
// create --from, the prompts (prompts/fill.ts), `show` (tickets/detail.ts) and the update form
// all read it, so an option means the same thing everywhere and a new field is added here.
import { Option, type Command, type OptionValues } from '@commander-js/extra-typings';
import { UsageError } from '../errors.js';
import type { LookupKind } from '../lookups/types.js';
import { ATTACH_FLAGS, attachHelp, collect } from '../util/option-text.js';

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
  /** `addresses`: one e-mail address, or a list separated by commas or semicolons. */
  | { type: 'text'; maxLength?: number; addresses?: 'one' | 'list' }
  | { type: 'when' }
  | { type: 'ticketType' }
  /** Paths sent as `Uploads` parts, not as a form field. */
  | { type: 'files' };

/**
 * How a person is asked for a lookup field at a terminal: create asks the fields that have these,
 * in the table's order; update's field picker asks any field, searching where `search` says.
 */
export interface AskFacts {
  /** Preselect the entry with this name, e.g. status "Open". */
  defaultName?: string;
  /** Always type-to-filter (people lists grow). */
  search?: boolean;
  /** Asked only once this field has a value (sub-category after category). */
  after?: string;
}

export interface TicketFieldSpec {
  /** commander's attribute name for the option, and the column name in a --from file. */
  key: string;
  flags: string;
  description: string;
  /** Its name on screen: prompts, `show`'s header. */
  label: string;
  /** Form field name; empty for `files`. */
  formField: string;
  value: FieldValueType;
  endpoints: readonly TicketEndpoint[];
  /**
   * Where a ticket detail holds it, read without regard to case: its value (an ID) under one of
   * `ids`; for a related record, the record under one of `nested` (its name, and its `id`).
   */
  detail?: { ids: readonly string[]; nested?: readonly string[] };
  /** Asked for by create at a terminal when missing (lookup fields). */
  ask?: AskFacts;
}

/** TicketType 1 = Ticket (spec 2.4); the other values are not published, so they go by number. */
export const TICKET_TYPES: Readonly<Record<string, number>> = { ticket: 1 };

/** A TicketType as a person names it: its name, else its number. */
export function ticketTypeName(type: number): string {
  return Object.keys(TICKET_TYPES).find((name) => TICKET_TYPES[name] === type) ?? String(type);
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
/** The form field's name as a ticket detail spells it (CreatorId -> creatorId). */
const detailName = (formField: string): string => formField.charAt(0).toLowerCase() + formField.slice(1);

interface LookupFieldFacts {
  key: string;
  formField: string;
  kind: LookupKind;
  endpoints: readonly TicketEndpoint[];
  description: string;
  label: string;
  /** Other names of the ID in a ticket detail, after the form field's own. */
  ids?: readonly string[];
  /** Names of the related record in a ticket detail. */
  nested: readonly string[];
  ask?: AskFacts;
}

function lookupField(facts: LookupFieldFacts): TicketFieldSpec {
  const { key, formField, kind, endpoints, description, label, ids = [], nested, ask } = facts;
  return {
    key, flags: `--${key} <name|id>`, description, label, formField, value: { type: 'lookup', kind }, endpoints,
    detail: { ids: [detailName(formField), ...ids], nested }, ...(ask === undefined ? {} : { ask }),
  };
}

function idField(key: string, formField: string, endpoints: readonly TicketEndpoint[], label: string, description: string): TicketFieldSpec {
  return { key, flags: `--${key} <id>`, description, label, formField, value: { type: 'id' }, endpoints, detail: { ids: [detailName(formField)] } };
}

// In the order a person fills the form in (the prompts ask in this order).
export const TICKET_FIELDS: readonly TicketFieldSpec[] = [
  { key: 'title', flags: '--title <text>', description: `subject (at most ${TITLE_MAX_LENGTH} characters)`, label: 'Title', formField: 'Title', value: { type: 'text', maxLength: TITLE_MAX_LENGTH }, endpoints: ['register', 'new'] },
  { key: 'description', flags: '--description <text>', description: 'description text, or - to read stdin', label: 'Description', formField: 'Description', value: { type: 'text' }, endpoints: ['register', 'new'] },
  lookupField({ key: 'requester', formField: 'CreatorId', kind: 'requester', endpoints: REGISTER_UPDATE, description: 'requester: user ID, username or full name', label: 'Requester', ids: ['requesterId'], nested: ['creator', 'requester'], ask: { search: true } }),
  { key: 'requester', flags: '--requester <username>', description: 'requester: user ID, username or full name (sent as the username)', label: 'Requester username', formField: 'Requester', value: { type: 'lookup', kind: 'requester', as: 'username' }, endpoints: ['new'], ask: {} },
  { key: 'email', flags: '--email <address>', description: 'requester e-mail, helps the service match the requester (--integration)', label: 'E-mail', formField: 'Email', value: { type: 'text', addresses: 'one' }, endpoints: ['new'] },
  lookupField({ key: 'site', formField: 'SiteId', kind: 'site', endpoints: ALL, description: 'site name or ID', label: 'Site', nested: ['site'], ask: {} }),
  lookupField({ key: 'department', formField: 'DepartmentId', kind: 'department', endpoints: ALL, description: 'department name or ID', label: 'Department', nested: ['department'], ask: {} }),
  lookupField({ key: 'status', formField: 'TicketStatusId', kind: 'status', endpoints: ALL, description: 'status name or ID', label: 'Status', ids: ['statusId'], nested: ['status'], ask: { defaultName: 'Open' } }),
  lookupField({ key: 'priority', formField: 'TicketPriorityId', kind: 'priority', endpoints: ALL, description: 'priority name or ID', label: 'Priority', ids: ['priorityId'], nested: ['priority'], ask: {} }),
  lookupField({ key: 'category', formField: 'TicketCategoryId', kind: 'category', endpoints: ALL, description: 'category name or ID', label: 'Category', ids: ['categoryId'], nested: ['category'], ask: {} }),
  lookupField({ key: 'subcategory', formField: 'TicketSubCategoryId', kind: 'subcategory', endpoints: REGISTER_UPDATE, description: 'sub-category name or ID', label: 'Sub-category', ids: ['subCategoryId'], nested: ['subCategory', 'sub_category'], ask: { after: 'category' } }),
  lookupField({ key: 'item', formField: 'ItemId', kind: 'item', endpoints: REGISTER_UPDATE, description: 'item (CI) name or ID', label: 'Item', nested: ['item'], ask: { after: 'subcategory' } }),
  lookupField({ key: 'group', formField: 'GroupId', kind: 'group', endpoints: ALL, description: 'group name or ID', label: 'Group', nested: ['group'], ask: {} }),
  lookupField({ key: 'level', formField: 'TierLevelId', kind: 'level', endpoints: ALL, description: 'tier level name or ID', label: 'Level', ids: ['levelId'], nested: ['tierLevel', 'level'] }),
  lookupField({ key: 'client', formField: 'ClientId', kind: 'client', endpoints: ALL, description: 'client name or ID', label: 'Client', nested: ['client'] }),
  lookupField({ key: 'assignee', formField: 'AssignedUser', kind: 'assignee', endpoints: REGISTER_UPDATE, description: 'technician: user ID, username, full name, or @me', label: 'Assignee', ids: ['assignedUserId'], nested: ['assignee', 'assignedTo', 'technician'], ask: { search: true } }),
  { key: 'type', flags: '--type <type>', description: 'ticket type: "ticket" or a numeric type (create defaults to ticket)', label: 'Type', formField: 'TicketType', value: { type: 'ticketType' }, endpoints: REGISTER_UPDATE, detail: { ids: ['ticketType'] } },
  idField('sla', 'SLAId', ['register'], 'SLA', 'SLA ID (chosen by the service when omitted)'),
  idField('service', 'ServiceId', REGISTER_UPDATE, 'Service', 'service ID'),
  idField('impact', 'ImpactId', REGISTER_UPDATE, 'Impact', 'impact ID'),
  idField('urgency', 'UrgencyId', REGISTER_UPDATE, 'Urgency', 'urgency ID'),
  { key: 'due', flags: '--due <when>', description: 'due date: ISO 8601 or +3d/+4h/+30m (an SLA may override it)', label: 'Due', formField: 'DueDate', value: { type: 'when' }, endpoints: REGISTER_UPDATE, detail: { ids: ['dueDate'] } },
  { key: 'cc', flags: '--cc <emails>', description: 'CC e-mail addresses', label: 'CC', formField: 'Cc', value: { type: 'text', addresses: 'list' }, endpoints: ['register'] },
  { key: 'tag', flags: '--tag <id>', description: 'tag ID (repeatable)', label: 'Tags', formField: 'SelectedTags', value: { type: 'ids' }, endpoints: ['register'] },
  { key: 'guid', flags: '--guid <guid>', description: 'external GUID (generated by the service when omitted)', label: 'GUID', formField: 'Guid', value: { type: 'text' }, endpoints: ['register'] },
  { key: 'attach', flags: ATTACH_FLAGS, description: attachHelp(), label: 'Attachments', formField: '', value: { type: 'files' }, endpoints: ['register', 'new'] },
];

/** The lookup field of each kind that a ticket detail shows (one per kind: the requester as a user). */
export function detailField(kind: LookupKind): TicketFieldSpec & { detail: NonNullable<TicketFieldSpec['detail']> } {
  const spec = TICKET_FIELDS.find((candidate) => candidate.value.type === 'lookup' && candidate.value.kind === kind && candidate.detail !== undefined);
  if (spec?.detail === undefined) throw new Error(`no ticket field shows the ${kind} of a ticket`);
  return spec as TicketFieldSpec & { detail: NonNullable<TicketFieldSpec['detail']> };
}

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

/** Whether an option's value holds something (an empty text or list does not). */
export function isGiven(value: string | readonly string[] | undefined): boolean {
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
    const option = new Option(spec.flags, spec.description);
    // No default value: commander would print "(default: [])" in the help.
    if (spec.value.type === 'ids' || spec.value.type === 'files') option.argParser(collect);
    command.addOption(option);
    fieldOptions.set(option, spec);
  }
  return command;
}

// The options addFieldOptions made, with their fields: a command's own option of the same name
// (list's --status) is not a field, whatever its flags and help say.
const fieldOptions = new WeakMap<object, TicketFieldSpec>();

/** The field an option stands for when addFieldOptions made it, else undefined. */
export function fieldOfOption(option: object): TicketFieldSpec | undefined {
  return fieldOptions.get(option);
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
