// What one tool of `tkt mcp` is: its name, a tight description, its input and output schemas
// (zod shapes: the SDK turns them into JSON Schema, the server checks arguments against them and
// refuses unknown ones), its annotations, and `call`, which answers from the run's Context
// through the same code as the matching command.
import { z } from 'zod';
import type { Context } from '../context/context.js';
import type { Lookups } from '../lookups/types.js';
import type { ToolName } from './catalog.js';

/** What a call works with: the run's Context with this call's login and signal, and its lookups (call-scope.ts). */
export interface ToolScope {
  ctx: Context;
  lookups: Lookups;
}

/** A tool's answer before it is wrapped: the structured facts and their fenced rendering. */
export interface ToolOutput {
  structured: Record<string, unknown>;
  text: string;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

export interface ToolDefinition<Input extends z.ZodRawShape = z.ZodRawShape> {
  name: ToolName;
  title: string;
  description: string;
  input: Input;
  output: z.ZodRawShape;
  annotations: ToolAnnotations;
  /** false for a read tool that reads no ticket (lookups): it waits for no write in flight. */
  readsTickets?: false;
  call(args: z.infer<z.ZodObject<Input>>, scope: ToolScope): Promise<ToolOutput>;
}

/** Declares a tool with its arguments typed from its input shape. */
export function defineTool<Input extends z.ZodRawShape>(definition: ToolDefinition<Input>): ToolDefinition<Input> {
  return definition;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

const TICKET_ID_DIGITS = /^[1-9][0-9]*$/;
const TICKET_ID_EXPECTED = 'expected a ticket ID: a whole number from 1, or its digits as a string';

/**
 * A ticket ID argument: a whole number from 1, or its digits as a string ("1013"), as language
 * models often send IDs; anything else ("10x", "", "-5", 10.5) is refused saying what is taken.
 * tools/list says both, in one schema: `.int().positive()` would list its bounds, and a union
 * an anyOf, in every tool that takes a ticket (README: Assistants, the budget).
 */
export const ticketIdInput = {
  id: z
    .preprocess(
      (value) => (typeof value === 'string' && TICKET_ID_DIGITS.test(value) ? Number(value) : value),
      z.number({ error: TICKET_ID_EXPECTED }).refine((id) => Number.isSafeInteger(id) && id >= 1, TICKET_ID_EXPECTED),
    )
    .meta({ type: ['integer', 'string'], minimum: 1, pattern: TICKET_ID_DIGITS.source, description: 'ticket ID' }),
};

/** The ticket ID a call's arguments name, as the tool will take it, or undefined when they name none. */
export function ticketIdOfArguments(args: Record<string, unknown> | undefined): number | undefined {
  const parsed = ticketIdInput.id.safeParse(args?.id);
  return parsed.success ? parsed.data : undefined;
}
