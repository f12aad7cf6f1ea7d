// Every tool of `tkt mcp`, in the catalog's order (src/mcp/catalog.ts names them).
import { createTicket, replyToTicket, updateTicketTool } from './form-tools.js';
import { getTicket } from './get-ticket.js';
import { assignTicket, closeTicket, deleteTicket, pickupTicket, reopenTicket, resolveTicket } from './id-tools.js';
import { listTickets } from './list-tickets.js';
import { lookupsTool } from './lookups-tool.js';
import { myQueue } from './queue-tool.js';
import type { ToolDefinition } from './tool.js';

// Each is typed by its own input; the server hands them arguments its schema has checked.
export const TOOL_DEFINITIONS = [
  listTickets,
  getTicket,
  myQueue,
  lookupsTool,
  createTicket,
  updateTicketTool,
  replyToTicket,
  resolveTicket,
  closeTicket,
  pickupTicket,
  assignTicket,
  reopenTicket,
  deleteTicket,
] as unknown as readonly ToolDefinition[];
