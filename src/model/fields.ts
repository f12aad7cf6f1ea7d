// The one table of ticket fields, and every fact about each field: its option, its form field
// per endpoint, whether create requires it, where a ticket keeps it (detail or list item), its
// lookup collection, its place in `tkt show`'s header, its `tkt list` filter, how a person is
// asked for it, its name on screen. Everything else is derived from the rows: the lookup kinds
// (lookups/), the required options, show's header (tickets/detail.ts), list's filters
// (tickets/list-filter.ts), completion (completion/spec.ts) and the ticket read model
// (model/ticket.ts). A new lookup field is one row here (and the sandbox, which shares nothing).
// It sits below lookups/ because the lookups take their kinds from it.
import { ATTACH_FLAGS, addressesHelp, attachHelp } from '../util/option-text.js';

/** register (docs/service.md 4.3), new (4.15), update (4.4). */
export type TicketEndpoint = 'register' | 'new' | 'update';

export type FieldValueType<Kind extends string = LookupKind> =
  /** A lookup name or ID, sent as its ID; a person as their username where `as` says so (new). */
  | { type: 'lookup'; kind: Kind; as?: 'username' }
  /** A numeric ID with no lookup collection to name it (SLA, service, impact, urgency). */
  | { type: 'id' }
  /** Repeatable numeric IDs sent as repeated form fields (SelectedTags). */
  | { type: 'ids' }
  /** `addresses`: one e-mail address, or a list separated by commas or semicolons; `oneLine`: what it is, one line ("a title"). */
  | { type: 'text'; maxLength?: number; addresses?: 'one' | 'list'; oneLine?: string }
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

/** Where a ticket keeps a field, read without regard to case (docs/service.md 2.2 shows camelCase and PascalCase). */
export interface MemberNames {
  /** Members holding its value (an ID, a date, text), first present wins. */
  ids: readonly string[];
  /** Members holding its related record ({id, name}) or its name as plain text ("Open"). */
  names?: readonly string[];
}

/** A lookup kind's collection in the metadata answers (docs/service.md 4.13, 4.14). */
export interface LookupFacts {
  /** The collection as the spec names it, then the spellings a server might use instead. */
  collection: readonly string[];
  /** Members of an entry holding its display name, first present wins. */
  entryNames: readonly string[];
  /** Which metadata call returns it. */
  source: 'appmetadata' | 'metadata';
  /** Its entries are people: their IDs are text and @me is the logged-in user. */
  people?: true;
  /** metadata/{id} (scoped to a ticket) leaves it out. */
  notPerTicket?: true;
}

/** A lookup field in `tkt show`'s header. */
export interface HeaderFacts {
  /** Its place (status first: it decides whether overdue counts, and people read it first). */
  place: number;
  /** What the header says when the ticket has none (an unassigned ticket says so). */
  whenEmpty?: string;
}

/** A lookup field as a `tkt list` filter (`--status NAME`): the option is named after the kind. */
export interface FilterFacts {
  /** The value's placeholder in the help, e.g. `name` or `user`. */
  placeholder: string;
  description: string;
}

/** The facts of a field that differ on one endpoint (the requester is a username on new). */
export type EndpointFacts<Kind extends string> = Partial<Pick<FieldRow<Kind>, 'formField' | 'value' | 'label' | 'ask'>>;

export interface FieldRow<Kind extends string> {
  /** commander's attribute name for the option, and the column name in a --from file. */
  key: string;
  flags: string;
  description: string;
  /** Its name on screen: prompts, `show`'s header; lower-cased in lookup messages. */
  label: string;
  /** Form field name; empty for `files`. */
  formField: string;
  value: FieldValueType<Kind>;
  endpoints: readonly TicketEndpoint[];
  /** The endpoints that refuse a ticket without it (create asks for it at a terminal). */
  required?: readonly TicketEndpoint[];
  /** Where a ticket detail or list item keeps it. */
  members?: MemberNames;
  /** A lookup field's collection. */
  lookup?: LookupFacts;
  header?: HeaderFacts;
  filter?: FilterFacts;
  /** Asked for by create at a terminal when missing (lookup fields). */
  ask?: AskFacts;
  /**
   * The update form sends it only as a change: the service applies it only when given and
   * different from the ticket's (docs/service.md 4.4), so the value read is not sent back, where it
   * would undo another writer's change made between the read and the update.
   */
  onlyAsChange?: true;
  /** Facts that differ on one endpoint; `fieldsFor` applies them. */
  on?: Partial<Record<TicketEndpoint, EndpointFacts<Kind>>>;
}

const ALL: readonly TicketEndpoint[] = ['register', 'new', 'update'];
const CREATE: readonly TicketEndpoint[] = ['register', 'new'];
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
const memberName = (formField: string): string => formField.charAt(0).toLowerCase() + formField.slice(1);

/** A lookup field: its kind is its key, so `--site` takes a site and `tkt __complete site` names them. */
interface LookupRow<Kind extends string> extends Omit<FieldRow<Kind>, 'flags' | 'value' | 'members' | 'lookup'> {
  key: Kind;
  lookup: LookupFacts;
  /** Other members holding its ID, after the form field's own (ticketStatusId). */
  ids?: readonly string[];
  /** Members holding its related record or its name. */
  names: readonly string[];
}

function lookupField<const Kind extends string>(row: LookupRow<Kind>): FieldRow<Kind> {
  const { ids = [], names, ...facts } = row;
  return { ...facts, flags: `--${row.key} <name|id>`, value: { type: 'lookup', kind: row.key }, members: { ids: [memberName(row.formField), ...ids], names } };
}

/** A numeric ID with no lookup collection, kept under the form field's own name. */
function idField(row: Omit<FieldRow<never>, 'flags' | 'value' | 'members'>): FieldRow<never> {
  return { ...row, flags: `--${row.key} <id>`, value: { type: 'id' }, members: { ids: [memberName(row.formField)] } };
}

/** Any other field, typed as it is written. */
const otherField = (row: FieldRow<never>): FieldRow<never> => row;

const PERSON_ENTRY_NAMES = ['fullName', 'name', 'displayName', 'userName'];

// In the order a person fills the form in (the prompts ask in this order).
const ROWS = [
  otherField({
    key: 'title',
    flags: '--title <text>',
    description: `subject (at most ${TITLE_MAX_LENGTH} characters)`,
    label: 'Title',
    formField: 'Title',
    value: { type: 'text', maxLength: TITLE_MAX_LENGTH, oneLine: 'a title' },
    endpoints: CREATE,
    required: CREATE,
    members: { ids: ['title', 'subject'] },
  }),
  otherField({
    key: 'description',
    flags: '--description <text>',
    description: 'description text, or - to read stdin',
    label: 'Description',
    formField: 'Description',
    value: { type: 'text' },
    endpoints: CREATE,
    required: CREATE,
    members: { ids: ['description', 'body'] },
  }),
  lookupField({
    key: 'requester',
    description: 'requester: user ID, username or full name',
    label: 'Requester',
    formField: 'CreatorId',
    endpoints: ALL,
    required: CREATE,
    ids: ['requesterId'],
    names: ['creator', 'requester', 'requesterName', 'createdBy'],
    lookup: { collection: ['requesters'], entryNames: PERSON_ENTRY_NAMES, source: 'metadata', people: true, notPerTicket: true },
    header: { place: 3 },
    ask: { search: true },
    // The integration endpoint takes the requester's username, typed rather than chosen.
    on: { new: { formField: 'Requester', value: { type: 'lookup', kind: 'requester', as: 'username' }, label: 'Requester username', ask: {} } },
  }),
  otherField({
    key: 'email',
    flags: '--email <address>',
    description: 'requester e-mail, helps the service match the requester (--integration)',
    label: 'E-mail',
    formField: 'Email',
    value: { type: 'text', addresses: 'one' },
    endpoints: ['new'],
  }),
  lookupField({
    key: 'site',
    description: 'site name or ID',
    label: 'Site',
    formField: 'SiteId',
    endpoints: ALL,
    required: ['register'],
    names: ['site', 'siteName'],
    lookup: { collection: ['sites'], entryNames: ['title', 'name'], source: 'appmetadata' },
    header: { place: 5 },
    filter: { placeholder: 'name', description: 'only tickets of this site' },
    ask: {},
  }),
  lookupField({
    key: 'department',
    description: 'department name or ID',
    label: 'Department',
    formField: 'DepartmentId',
    endpoints: ALL,
    required: ['register'],
    names: ['department', 'departmentName'],
    lookup: { collection: ['departments'], entryNames: ['title', 'name'], source: 'appmetadata' },
    header: { place: 6 },
    filter: { placeholder: 'name', description: 'only tickets of this department' },
    ask: {},
  }),
  lookupField({
    key: 'status',
    description: 'status name or ID',
    label: 'Status',
    formField: 'TicketStatusId',
    endpoints: ALL,
    required: ['register'],
    onlyAsChange: true,
    ids: ['statusId'],
    names: ['status', 'statusName', 'ticketStatus'],
    lookup: { collection: ['status', 'statuses'], entryNames: ['status', 'name', 'title'], source: 'appmetadata' },
    header: { place: 1 },
    filter: { placeholder: 'name', description: 'only tickets in this status (name or ID)' },
    ask: { defaultName: 'Open' },
  }),
  lookupField({
    key: 'priority',
    description: 'priority name or ID',
    label: 'Priority',
    formField: 'TicketPriorityId',
    endpoints: ALL,
    ids: ['priorityId'],
    names: ['priority', 'priorityName', 'ticketPriority'],
    lookup: { collection: ['priorities'], entryNames: ['priority', 'name', 'title'], source: 'appmetadata' },
    header: { place: 2 },
    filter: { placeholder: 'name', description: 'only tickets of this priority' },
    ask: {},
  }),
  lookupField({
    key: 'category',
    description: 'category name or ID',
    label: 'Category',
    formField: 'TicketCategoryId',
    endpoints: ALL,
    ids: ['categoryId'],
    names: ['category'],
    lookup: { collection: ['categories'], entryNames: ['name', 'title'], source: 'appmetadata' },
    header: { place: 7 },
    ask: {},
  }),
  lookupField({
    key: 'subcategory',
    description: 'sub-category name or ID',
    label: 'Sub-category',
    formField: 'TicketSubCategoryId',
    endpoints: REGISTER_UPDATE,
    ids: ['subCategoryId'],
    names: ['subCategory', 'sub_category'],
    lookup: { collection: ['sub_categories', 'subCategories', 'subcategories'], entryNames: ['name', 'title'], source: 'metadata' },
    header: { place: 8 },
    ask: { after: 'category' },
  }),
  lookupField({
    key: 'item',
    description: 'item (CI) name or ID',
    label: 'Item',
    formField: 'ItemId',
    endpoints: REGISTER_UPDATE,
    names: ['item'],
    lookup: { collection: ['items'], entryNames: ['name', 'title'], source: 'metadata' },
    header: { place: 9 },
    ask: { after: 'subcategory' },
  }),
  lookupField({
    key: 'group',
    description: 'group name or ID',
    label: 'Group',
    formField: 'GroupId',
    endpoints: ALL,
    names: ['group', 'groupName'],
    lookup: { collection: ['groups'], entryNames: ['group', 'name', 'title'], source: 'appmetadata' },
    header: { place: 10 },
    filter: { placeholder: 'name', description: 'only tickets of this group' },
    ask: {},
  }),
  lookupField({
    key: 'level',
    description: 'tier level name or ID',
    label: 'Level',
    formField: 'TierLevelId',
    endpoints: ALL,
    ids: ['levelId'],
    names: ['tierLevel', 'level'],
    lookup: { collection: ['levels', 'tierLevels'], entryNames: ['title', 'name', 'level'], source: 'appmetadata' },
    header: { place: 11 },
  }),
  lookupField({
    key: 'client',
    description: 'client name or ID',
    label: 'Client',
    formField: 'ClientId',
    endpoints: ALL,
    names: ['client'],
    lookup: { collection: ['clients'], entryNames: ['name', 'title'], source: 'appmetadata' },
    header: { place: 12 },
  }),
  lookupField({
    key: 'assignee',
    description: 'technician: user ID, username, full name, or @me',
    label: 'Assignee',
    formField: 'AssignedUser',
    endpoints: REGISTER_UPDATE,
    ids: ['assignedUserId', 'assigneeId', 'technicianId'],
    names: ['assignee', 'assignedTo', 'technician', 'assignedUserName'],
    lookup: { collection: ['technicians'], entryNames: PERSON_ENTRY_NAMES, source: 'metadata', people: true },
    header: { place: 4, whenEmpty: 'unassigned' },
    filter: { placeholder: 'user', description: 'only tickets assigned to USER (ID, username, full name), @me, or none' },
    ask: { search: true },
  }),
  otherField({
    key: 'type',
    flags: '--type <type>',
    description: 'ticket type: "ticket" or a type number from 1 (create defaults to ticket)',
    label: 'Type',
    formField: 'TicketType',
    value: { type: 'ticketType' },
    endpoints: REGISTER_UPDATE,
    members: { ids: ['ticketType'] },
  }),
  idField({ key: 'sla', description: 'SLA ID (chosen by the service when omitted)', label: 'SLA', formField: 'SLAId', endpoints: ['register'] }),
  idField({ key: 'service', description: 'service ID', label: 'Service', formField: 'ServiceId', endpoints: REGISTER_UPDATE }),
  idField({ key: 'impact', description: 'impact ID', label: 'Impact', formField: 'ImpactId', endpoints: REGISTER_UPDATE }),
  idField({ key: 'urgency', description: 'urgency ID', label: 'Urgency', formField: 'UrgencyId', endpoints: REGISTER_UPDATE }),
  otherField({
    key: 'due',
    flags: '--due <when>',
    description: 'due date: ISO 8601 or +3d/+4h/+30m (an SLA may override it)',
    label: 'Due',
    formField: 'DueDate',
    value: { type: 'when' },
    endpoints: REGISTER_UPDATE,
    members: { ids: ['dueDate', 'due', 'dueOn'] },
  }),
  otherField({
    key: 'cc',
    flags: '--cc <emails>',
    description: addressesHelp('CC e-mail addresses'),
    label: 'CC',
    formField: 'Cc',
    value: { type: 'text', addresses: 'list' },
    endpoints: ['register'],
    members: { ids: ['cc'] },
  }),
  otherField({
    key: 'tag',
    flags: '--tag <id>',
    description: 'tag ID (repeatable)',
    label: 'Tags',
    formField: 'SelectedTags',
    value: { type: 'ids' },
    endpoints: ['register'],
  }),
  otherField({
    key: 'guid',
    flags: '--guid <guid>',
    description: 'external GUID (generated by the service when omitted)',
    label: 'GUID',
    formField: 'Guid',
    value: { type: 'text' },
    endpoints: ['register'],
  }),
  otherField({
    key: 'attach',
    flags: ATTACH_FLAGS,
    description: attachHelp(),
    label: 'Attachments',
    formField: '',
    value: { type: 'files' },
    endpoints: CREATE,
  }),
];

type KindOf<Row> = Row extends FieldRow<infer Kind> ? Kind : never;

/** The lookup kinds: one per lookup field, named after its key (`--site`, `tkt __complete site`). */
export type LookupKind = KindOf<(typeof ROWS)[number]>;

export type TicketFieldSpec = FieldRow<LookupKind>;
export type LookupFieldSpec = TicketFieldSpec & { value: { type: 'lookup' }; lookup: LookupFacts; members: MemberNames };

export const TICKET_FIELDS: readonly TicketFieldSpec[] = ROWS;

const isLookupField = (spec: TicketFieldSpec): spec is LookupFieldSpec => spec.value.type === 'lookup' && spec.lookup !== undefined;

/** The lookup fields, one per kind, in the table's order. */
export const LOOKUP_FIELDS: readonly LookupFieldSpec[] = TICKET_FIELDS.filter(isLookupField);

export const LOOKUP_KINDS: readonly LookupKind[] = LOOKUP_FIELDS.map((spec) => spec.value.kind);

/** Whether a word names a lookup kind (what `tkt __complete KIND` accepts). */
export function isLookupKind(value: string): value is LookupKind {
  return (LOOKUP_KINDS as readonly string[]).includes(value);
}

/** The lookup field of a kind. */
export function lookupFieldOf(kind: LookupKind): LookupFieldSpec {
  const spec = LOOKUP_FIELDS.find((candidate) => candidate.value.kind === kind);
  if (spec === undefined) throw new Error(`no lookup field of kind ${kind}`);
  return spec;
}

/** The field of an option key (each key is one field). */
export function fieldOf(key: string): TicketFieldSpec | undefined {
  return TICKET_FIELDS.find((spec) => spec.key === key);
}

/** The fields an endpoint takes, with the facts that differ on it. */
export function fieldsFor(endpoint: TicketEndpoint): TicketFieldSpec[] {
  return TICKET_FIELDS.filter((spec) => spec.endpoints.includes(endpoint)).map((spec) => ({ ...spec, ...spec.on?.[endpoint] }));
}

/** The option keys the endpoint requires, in the table's order. */
export function requiredKeys(endpoint: TicketEndpoint): string[] {
  return TICKET_FIELDS.filter((spec) => spec.required?.includes(endpoint) === true).map((spec) => spec.key);
}

/** The lookup fields of `tkt show`'s header, in their places. */
export const HEADER_FIELDS: readonly (LookupFieldSpec & { header: HeaderFacts })[] = LOOKUP_FIELDS.filter(
  (spec): spec is LookupFieldSpec & { header: HeaderFacts } => spec.header !== undefined,
).sort((a, b) => a.header.place - b.header.place);

/** The lookup fields `tkt list` filters by (`--status NAME`), in the table's order. */
export const FILTER_FIELDS: readonly (LookupFieldSpec & { filter: FilterFacts })[] = LOOKUP_FIELDS.filter(
  (spec): spec is LookupFieldSpec & { filter: FilterFacts } => spec.filter !== undefined,
);

/** TicketType 1 = Ticket (docs/service.md 2.4); the other values are not published, so they go by number. */
export const TICKET_TYPES: Readonly<Record<string, number>> = { ticket: 1 };

/** What `--type` takes, for a value it refuses. */
export const TICKET_TYPE_ADVICE = 'use "ticket" or a type number, a whole number from 1 (ticket is 1)';

/** A TicketType as a person names it: its name, else its number. */
export function ticketTypeName(type: number): string {
  return Object.keys(TICKET_TYPES).find((name) => TICKET_TYPES[name] === type) ?? String(type);
}
