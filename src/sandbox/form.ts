// Reads typed fields out of a form the way ASP.NET model binding does (names
// case-insensitive, an empty value binds as null) and collects validation
// errors keyed by field name for one problem+json answer.
import type { Form } from './http.js';
import { problem } from './http.js';

export class FormFields {
  readonly errors: Record<string, string[]> = {};

  constructor(private readonly form: Pick<Form, 'fields'>) {}

  /** Sent at all, even empty: what 'overwrite' update mode distinguishes. */
  has(name: string): boolean {
    return this.form.fields.has(name.toLowerCase());
  }

  all(name: string): string[] {
    return this.form.fields.get(name.toLowerCase()) ?? [];
  }

  text(name: string, options: { required?: boolean; maxLength?: number } = {}): string | undefined {
    const value = this.all(name)[0];
    if (value === undefined || value.trim() === '') {
      if (options.required) this.fail(name, `The ${name} field is required.`);
      return undefined;
    }
    if (options.maxLength !== undefined && value.length > options.maxLength) {
      this.fail(name, `The field ${name} must be a string with a maximum length of ${options.maxLength}.`);
    }
    return value;
  }

  int(name: string, options: { required?: boolean } = {}): number | undefined {
    const value = this.text(name, options);
    if (value === undefined) return undefined;
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(Number(value))) {
      this.fail(name, `The value '${value}' is not valid for ${name}.`);
      return undefined;
    }
    return Number(value);
  }

  ints(name: string): number[] {
    return this.all(name).flatMap((value) => {
      if (/^-?\d+$/.test(value.trim())) return [Number(value)];
      this.fail(name, `The value '${value}' is not valid for ${name}.`);
      return [];
    });
  }

  bool(name: string): boolean | undefined {
    const value = this.text(name);
    if (value === undefined) return undefined;
    const lower = value.trim().toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
    this.fail(name, `The value '${value}' is not valid for ${name}.`);
    return undefined;
  }

  /** An ISO date or date-time, normalised to ISO 8601 UTC. */
  date(name: string): string | undefined {
    const value = this.text(name);
    if (value === undefined) return undefined;
    const time = Date.parse(value);
    if (Number.isNaN(time)) {
      this.fail(name, `The value '${value}' is not valid for ${name}.`);
      return undefined;
    }
    return new Date(time).toISOString();
  }

  fail(name: string, message: string): void {
    (this.errors[name] ??= []).push(message);
  }

  /** Throws one 400 problem+json naming every invalid field. */
  check(): void {
    if (Object.keys(this.errors).length > 0) throw problem(400, this.errors);
  }
}

/** A JSON object body read like a form (authenticate, the paginated list). */
export function fieldsFromJson(body: unknown): FormFields {
  const entries = typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.entries(body) : [];
  const fields = new Map<string, string[]>();
  for (const [name, value] of entries) {
    if (value !== null && value !== undefined) fields.set(name.toLowerCase(), [String(value)]);
  }
  return new FormFields({ fields });
}
