// A valid ticket for `tkt create`, written once for every test that creates one: a test names
// only the fields it is about (an override, or null to leave a flag out) and adds its own flags.
import type { RawFieldValues } from '../../src/fields/options.js';

/** The fields the register form (tkt create without --integration) requires, by name. */
export const VALID_TICKET = {
  title: 'Printer on fire',
  description: 'Smoke from tray 2',
  requester: 'aberg',
  site: 'Head Office',
  department: 'IT',
  status: 'Open',
} as const;

/** The same site, department and status by ID: nothing to look up. */
export const BY_ID = { site: '1', department: '1', status: '1' } as const;

/** The fields `tkt create --integration` requires (the requester by username). */
export const VALID_INTEGRATION_TICKET = { title: 'Build failed', description: 'See the logs', requester: 'pnovak' } as const;

/** Flag values by field (`--<field>`); null leaves the flag out. */
export type FieldFlags = Readonly<Record<string, string | null>>;

function flagsOf(fields: FieldFlags): string[] {
  return Object.entries(fields).flatMap(([field, value]) => (value === null ? [] : [`--${field}`, value]));
}

/** The flags (after the verb) of `tkt create` for VALID_TICKET with `overrides`. */
export function validCreateArgs(overrides: FieldFlags = {}): string[] {
  return flagsOf({ ...VALID_TICKET, ...overrides });
}

/** The flags (after the verb) of `tkt create --integration` for VALID_INTEGRATION_TICKET with `overrides`. */
export function integrationCreateArgs(overrides: FieldFlags = {}): string[] {
  return ['--integration', ...flagsOf({ ...VALID_INTEGRATION_TICKET, ...overrides })];
}

/** create's run() values for VALID_TICKET by ID, with `overrides`. */
export function validCreateValues(overrides: RawFieldValues = {}): RawFieldValues {
  return { ...VALID_TICKET, ...BY_ID, ...overrides };
}
