// Ticket field values checked and resolved: what the user typed (options, a --from row, the
// prompts) becomes the form the service takes, by the field table (fields.ts).
import type { FormValue, MultipartInput, UploadFile } from '../api/types.js';
import { uploadOf, type GivenUpload } from '../cmdutil/upload-argument.js';
import { UsageError } from '../errors.js';
import { LookupError, lookupLabel } from '../lookups/index.js';
import { personLabel, type LookupKind, type Lookups, type TypedOption } from '../lookups/types.js';
import { addressListProblem, addressProblem, joinAddresses } from '../util/email.js';
import { idProblem, parseWholeNumber } from '../util/ids.js';
import { parseWhen } from '../util/when.js';
import { oneLineProblem } from '../util/option-text.js';
import { fieldsFor, lengthProblem, TICKET_TYPE_ADVICE, TICKET_TYPES, type TicketEndpoint, type TicketFieldSpec } from '../model/fields.js';
import { flagOf, isGiven, type RawFieldValues } from './options.js';

/** A field checked locally and ready to be resolved (lookups) or sent as is. */
interface CheckedField {
  spec: TicketFieldSpec;
  /** The text to resolve through the lookups (lookup fields only). */
  lookupText?: string;
  value?: FormValue;
  files?: GivenUpload[];
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

/** Where the attachments' relative paths are found: `filesIn` (create --from: beside its file), else the current folder. */
export interface FileOptions {
  filesIn?: string | undefined;
}

export interface FieldCheck {
  /** The given values that are good. */
  checked: CheckedFields;
  /** What is wrong with the others, one problem each. */
  problems: string[];
}

/**
 * Checks every given value without any request: lengths, IDs, dates, types; keeps the good ones,
 * so that their names can be resolved all the same. Required options are not checked here.
 */
export function checkEachField(endpoint: TicketEndpoint, values: RawFieldValues, now: Date, options: FileOptions = {}): FieldCheck {
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
        if (id === undefined) problems.push(`${flag}: invalid ID ${JSON.stringify(asText(raw))}: ${idProblem(asText(raw))}`);
        else fields.push({ spec, value: id });
        break;
      }
      case 'ids': {
        const ids = asList(raw)
          .flatMap((text) => text.split(','))
          .map((text) => ({ text, id: parseWholeNumber(text, { min: 1 }) }));
        const bad = ids.filter((entry) => entry.id === undefined);
        if (bad.length === 0) fields.push({ spec, value: ids.map((entry) => entry.id as number) });
        // One problem per kind of mistake: "x" and "-1" are not whole numbers, "9...9" is too large.
        for (const problem of new Set(bad.map((entry) => idProblem(entry.text)))) {
          const named = bad.filter((entry) => idProblem(entry.text) === problem).map((entry) => JSON.stringify(entry.text));
          problems.push(`${flag}: invalid ID ${named.join(', ')}: ${problem}`);
        }
        break;
      }
      case 'text': {
        // An empty value is the option left out, as a single one is (isGiven).
        const texts = asList(raw).filter((each) => each !== '');
        if (texts.length === 0) break;
        // A list of addresses (--cc, repeatable) is sent as one, each address once.
        const text = kind.addresses === 'list' ? joinAddresses(texts) : asText(raw);
        const tooLong = kind.maxLength === undefined ? undefined : lengthProblem(text, kind.maxLength);
        const notOneLine = kind.oneLine === undefined ? undefined : oneLineProblem(text, kind.oneLine);
        const notAddress =
          kind.addresses === 'one'
            ? addressProblem(flag, text)
            : kind.addresses === 'list'
              ? texts.map((each) => addressListProblem(flag, each)).find((problem) => problem !== undefined)
              : undefined;
        if (tooLong !== undefined) {
          problems.push(`${flag}: ${tooLong}`);
        } else if (texts.some((each) => each.trim() === '')) {
          // As every text option (tickets/text-input.ts): blank is a mistake, not a value to send.
          problems.push(`${flag} is empty (only whitespace)`);
        } else if (notAddress !== undefined) {
          problems.push(notAddress);
        } else if (notOneLine !== undefined) {
          problems.push(`${flag} ${notOneLine}`);
        } else fields.push({ spec, value: text });
        break;
      }
      case 'when':
        try {
          fields.push({ spec, value: parseWhen(asText(raw), now).toISOString() });
        } catch (error) {
          // One line a problem: the hint (`-1M`: m is minutes) goes with it.
          const { message, hint } = error as UsageError;
          problems.push(`${flag}: ${message}${hint === undefined ? '' : ` (${hint})`}`);
        }
        break;
      case 'ticketType': {
        const text = asText(raw).trim().toLowerCase();
        const type = TICKET_TYPES[text] ?? parseWholeNumber(text, { min: 1 });
        if (type === undefined) problems.push(`${flag}: unknown ticket type ${JSON.stringify(asText(raw))}: ${TICKET_TYPE_ADVICE}`);
        else fields.push({ spec, value: type });
        break;
      }
      case 'files': {
        const files = asList(raw).map((argument) => uploadOf(argument, options.filesIn));
        const unnamed = files.filter((file) => file.nameProblem !== undefined);
        for (const file of unnamed) problems.push(`${flag} ${file.given}: ${file.nameProblem!}`);
        if (unnamed.length === 0) fields.push({ spec, files });
        break;
      }
    }
  }
  return { checked: { endpoint, fields }, problems };
}

/** The problems checkEachField found, as the one error that reports them together (exit 2); undefined for none. */
export function badValuesError(problems: readonly string[]): UsageError | undefined {
  if (problems.length === 0) return undefined;
  return problems.length === 1 ? new UsageError(problems[0]!) : new UsageError('invalid options', { details: [...problems] });
}

/** The given values checked (checkEachField); a bad one throws, naming every problem. */
export function checkFields(endpoint: TicketEndpoint, values: RawFieldValues, now: Date, options: FileOptions = {}): CheckedFields {
  const { checked, problems } = checkEachField(endpoint, values, now, options);
  const error = badValuesError(problems);
  if (error !== undefined) throw error;
  return checked;
}

export interface ResolvedFields {
  form: MultipartInput;
  /** Display names of looked-up values by form field, e.g. SiteId -> "Head Office"; empty unless asked for. */
  labels: Record<string, string>;
  /** Chosen people as tkt names them, by form field, e.g. CreatorId -> "Anna Berg (aberg)"; only those whose username is known. */
  people: Record<string, string>;
}

/**
 * Turns checked fields into the form: names become IDs through the lookups (exit 2 when unknown).
 * `labels` (for --dry-run only) names the IDs: that loads the lookups even for IDs typed as
 * digits, which otherwise go out without a request.
 */
export async function resolveFields(checked: CheckedFields, lookups: Lookups, options: { labels: boolean }): Promise<ResolvedFields> {
  const fields: Record<string, FormValue> = {};
  const labels: Record<string, string> = {};
  const people: Record<string, string> = {};
  const files: UploadFile[] = [];
  // Sequential: each kind loads its lookup once and the next one hits the cache.
  for (const entry of checked.fields) {
    if (entry.files !== undefined) files.push(...entry.files.map(({ path, name }) => ({ path, name })));
    else if (entry.spec.value.type === 'lookup' && entry.lookupText !== undefined) {
      const { value, id } = await resolveLookup(entry.spec.value, entry.spec.key, entry.lookupText, checked, lookups);
      fields[entry.spec.formField] = value;
      if (!options.labels || id === undefined) continue;
      const found = await lookups.entryOf(entry.spec.value.kind, id);
      if (found !== undefined) labels[entry.spec.formField] = found.name;
      if (found?.username !== undefined) people[entry.spec.formField] = personLabel(found);
    } else fields[entry.spec.formField] = entry.value;
  }
  return { form: files.length > 0 ? { fields, files } : { fields }, labels, people };
}

/** The lookup values of `checked` as typed, by form field: what a message names a wanted value by without a lookup. */
export function typedNames(checked: CheckedFields): Record<string, string> {
  const typed: Record<string, string> = {};
  for (const entry of checked.fields) if (entry.lookupText !== undefined) typed[entry.spec.formField] = entry.lookupText.trim();
  return typed;
}

/**
 * Every name of `checked` the lookups do not know, each as its error: resolveFields stops at
 * the first, a `create --from` file is told them all in one pass.
 */
export async function unresolvedNames(checked: CheckedFields, lookups: Lookups): Promise<UsageError[]> {
  const errors: UsageError[] = [];
  for (const entry of checked.fields) {
    if (entry.spec.value.type !== 'lookup' || entry.lookupText === undefined) continue;
    try {
      await resolveLookup(entry.spec.value, entry.spec.key, entry.lookupText, checked, lookups);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      errors.push(error);
    }
  }
  return errors;
}

/** One looked-up field's value to send: a username as such, else an ID (also returned, to label it). */
async function resolveLookup(
  lookup: { kind: LookupKind; as?: 'username' },
  key: string,
  text: string,
  checked: CheckedFields,
  lookups: Lookups,
): Promise<{ value: FormValue; id?: number | string }> {
  const label = lookupLabel(lookup.kind);
  // "unknown site" already names --site; "unknown sub-category" must name --subcategory.
  const typed = label === key ? undefined : { flag: `--${key}`, noun: label };
  if (lookup.as === 'username') return { value: await usernameOf(lookup.kind, text, checked, lookups, typed) };
  const id = await lookups.resolve(lookup.kind, text, typed);
  return { value: id, id };
}

/**
 * A person sent as a username. One the lookups do not know is still sent as typed when an
 * e-mail comes with it: the integration endpoint matches the requester by e-mail too (spec
 * 4.15), so only the service can tell.
 */
async function usernameOf(kind: LookupKind, text: string, checked: CheckedFields, lookups: Lookups, typed: TypedOption | undefined): Promise<string> {
  try {
    return await lookups.username(kind, text, typed);
  } catch (error) {
    const withEmail = checked.fields.some((entry) => entry.spec.key === 'email');
    if (error instanceof LookupError && error.reason === 'unknown' && withEmail) return text;
    throw error;
  }
}
