// The field table (model/fields.ts) as options: create's and update's field options, the values
// the user gave, and what is missing or foreign for an endpoint. create, update, create --from and
// the prompts (prompts/fill.ts) read options through here, so an option means the same thing
// everywhere.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { UsageError } from '../errors.js';
import { TICKET_FIELDS, fieldsFor, requiredKeys, type FieldValueType, type TicketEndpoint, type TicketFieldSpec } from '../model/fields.js';
import { collect, nonBlank } from '../util/option-text.js';

/** What the user gave, as text, by option key: commander's options or a --from row. */
export type RawFieldValues = Record<string, string | readonly string[] | undefined>;

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
  return requiredKeys(endpoint)
    .filter((key) => !isGiven(values[key]))
    .map(flagOf);
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
 * Whether a field's option may be given several times (--tag, --attach, --cc): a --from row
 * then takes a JSON list for it, each element as one more use of the option.
 */
export function isRepeatable(value: FieldValueType<string>): boolean {
  return value.type === 'ids' || value.type === 'files' || (value.type === 'text' && value.addresses === 'list');
}

/**
 * Adds every field option of the given endpoints to a command, each flag once. Their values are
 * typed by the table (pickFieldValues), not by commander: the command's own options stay typed.
 */
export function addFieldOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
  command: Command<Args, Opts, Globals>,
  endpoints: readonly TicketEndpoint[],
): Command<Args, Opts, Globals> {
  for (const spec of TICKET_FIELDS) {
    if (!spec.endpoints.some((e) => endpoints.includes(e))) continue;
    const option = command.createOption(spec.flags, spec.description);
    // No default value: commander would print "(default: [])" in the help.
    if (isRepeatable(spec.value)) option.argParser(collect);
    command.addOption(option);
    fieldOptions.set(option, spec);
  }
  return command;
}

// The options addFieldOptions made, with their fields: a command's own option of the same name
// (list's --status filter) is not a field, whatever its flags and help say.
const fieldOptions = new WeakMap<object, TicketFieldSpec>();

/** The field an option stands for when addFieldOptions made it, else undefined. */
export function fieldOfOption(option: object): TicketFieldSpec | undefined {
  return fieldOptions.get(option);
}

/**
 * The field option values out of commander's parsed options. A value given empty or blank is
 * exit 2 naming the option (docs/cli.md section 11), never the option left out: only a --from
 * row's empty cell means that.
 */
export function pickFieldValues(opts: object): RawFieldValues {
  const values: RawFieldValues = {};
  for (const spec of TICKET_FIELDS) {
    const value: unknown = (opts as Record<string, unknown>)[spec.key];
    if (typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'))) {
      for (const text of typeof value === 'string' ? [value] : (value as string[])) nonBlank(text, `${flagOf(spec.key)} is empty`);
      values[spec.key] = value;
    }
  }
  return values;
}
