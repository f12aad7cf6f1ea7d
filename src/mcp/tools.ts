// Every tool of `tkt mcp`, in the catalog's order (src/mcp/catalog.ts names them).
import { getTicket } from './get-ticket.js';
import { listTickets } from './list-tickets.js';
import { lookupsTool } from './lookups-tool.js';
import { myQueue } from './queue-tool.js';
import type { ToolDefinition } from './tool.js';

export const TOOL_DEFINITIONS: readonly ToolDefinition[] = [listTickets, getTicket, myQueue, lookupsTool] as unknown as ToolDefinition[];
