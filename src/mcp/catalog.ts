// The tools of `tkt mcp` by name, and which a run offers (docs/cli.md section 14): read-only by
// default, --write adds the changes, --allow-delete the deletion, --tools narrows. Light on
// purpose: the command checks --tools against it before the SDK loads.
import { UsageError } from '../errors.js';

export const READ_TOOLS = ['list_tickets', 'get_ticket', 'my_queue', 'lookups'] as const;
export const WRITE_TOOLS = [
  'create_ticket',
  'update_ticket',
  'reply_to_ticket',
  'resolve_ticket',
  'close_ticket',
  'pickup_ticket',
  'assign_ticket',
  'reopen_ticket',
] as const;
export const DELETE_TOOLS = ['delete_ticket'] as const;
export const ALL_TOOLS = [...READ_TOOLS, ...WRITE_TOOLS, ...DELETE_TOOLS] as const;
export type ToolName = (typeof ALL_TOOLS)[number];

export interface ToolSelection {
  write?: boolean | undefined;
  allowDelete?: boolean | undefined;
  /** --tools as typed: comma-separated names. */
  tools?: string | undefined;
}

/** The tools a run offers, in the catalog's order; exit 2 for an unknown or not allowed name. */
export function selectTools(selection: ToolSelection): ToolName[] {
  if (selection.allowDelete && !selection.write) throw new UsageError('--allow-delete needs --write');
  const allowed: ToolName[] = [...READ_TOOLS, ...(selection.write ? WRITE_TOOLS : []), ...(selection.allowDelete ? DELETE_TOOLS : [])];
  if (selection.tools === undefined) return allowed;
  const names = selection.tools
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) throw new UsageError('--tools needs at least one tool name', { details: [`valid tools: ${ALL_TOOLS.join(', ')}`] });
  for (const name of names) {
    if (!(ALL_TOOLS as readonly string[]).includes(name)) {
      throw new UsageError(`unknown tool ${JSON.stringify(name)}`, { details: [`valid tools: ${ALL_TOOLS.join(', ')}`] });
    }
    if (!(allowed as readonly string[]).includes(name)) {
      const flag = (DELETE_TOOLS as readonly string[]).includes(name) ? '--write --allow-delete' : '--write';
      throw new UsageError(`tool ${name} needs ${flag}`);
    }
  }
  return allowed.filter((name) => names.includes(name));
}
