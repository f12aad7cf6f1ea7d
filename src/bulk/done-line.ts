// The line of one ID that succeeded, and its JSON Line: what a single ID prints on success
// without loading the bulk reporter (report.ts), which prints them the same way for many IDs.
import type { IO } from '../output/io.js';
import type { Output } from '../output/types.js';
import { sanitizeInline } from '../output/sanitize.js';
import { createStyle } from '../output/style.js';
import { writeText } from '../output/write.js';
import type { BulkResult } from './runner.js';

export type BulkVerb = 'marked read' | 'resolved' | 'closed' | 'picked up' | 'deleted' | 'assigned' | `assigned to ${string}` | 'reopened' | 'updated';

export function jsonLine(
  result: Pick<BulkResult, 'id' | 'ok' | 'inDoubt' | 'status' | 'error' | 'note' | 'previousAssignee' | 'body' | 'files'> & { notStarted?: true },
): Record<string, unknown> {
  // Built key by key so the order is always id, ok, inDoubt / notStarted, status, error, note, previousAssignee, kept, skipped, body.
  const line: Record<string, unknown> = { id: result.id, ok: result.ok };
  if (result.inDoubt) line.inDoubt = true;
  if (result.notStarted) line.notStarted = true;
  if (result.status !== undefined) line.status = result.status;
  if (!result.ok) line.error = result.error ?? 'failed';
  // A success that changed nothing says so, as its text line and its dry run's line do.
  if (result.note !== undefined) line.note = result.note;
  if (result.previousAssignee !== undefined) line.previousAssignee = result.previousAssignee;
  if (result.files !== undefined) {
    line.kept = result.files.kept;
    line.skipped = result.files.skipped;
  }
  if (result.body !== undefined) line.body = result.body;
  return line;
}

/** A ticket changed, but some of the files sent with the change were not kept. */
export const skippedFiles = (result: BulkResult): boolean => result.ok && (result.files?.skipped.length ?? 0) > 0;

/**
 * "✓ #12 closed", or what the success changed instead: "✓ #12 already closed, nothing changed";
 * a ticket taken from someone names them: "✓ #12 picked up from Omar Haddad (ohaddad)".
 */
export function doneLine(result: BulkResult, verb: BulkVerb, mark = '✓'): string {
  const from = result.previousAssignee === undefined ? '' : ` from ${sanitizeInline(result.previousAssignee)}`;
  return `${mark} #${result.id} ${result.note === undefined ? `${verb}${from}` : sanitizeInline(result.note)}\n`;
}

/**
 * Prints a success: its JSON Line with --json (its line said on stderr when the line's --query
 * fails, for the change was made), nothing with -q, else its line on stdout.
 */
export function createDonePrinter(io: IO, output: Output, verb: BulkVerb): (result: BulkResult) => Promise<void> {
  if (output.format === 'json') return (result) => output.line(jsonLine(result), { human: () => doneLine(result, verb) });
  if (output.format === 'quiet') return async () => {};
  const mark = createStyle(io.stdoutColor).green('✓');
  return (result) => writeText(io.stdout, doneLine(result, verb, mark));
}
