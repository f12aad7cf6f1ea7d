// Which uploaded files the service kept. It keeps only file types on its allowed list and skips
// the others without an error (docs/service.md 4.11), so a 2xx says nothing about the files: a CI job would
// lose its log and stay green. After every upload (attach, create, reply, forward, close) tkt
// finds out which were kept, from the answer when it names them, else from the ticket read back,
// and fails the files it skipped (README: Attachments the service skips). A file listed with a
// size other than the one sent (an empty copy) is not the file sent: it counts as not kept.
import { tktCommand, type RunPlace } from '../config/session.js';
import { field, isObject, stringField } from '../api/member-access.js';
import { plans } from '../api/plans.js';
import type { ApiClient, ApiResponse, TicketId, UploadFile } from '../api/types.js';
import { sentSize } from '../api/upload.js';
import type { Context } from '../context/context.js';
import { FilesSkippedError, OperationError, TktError } from '../errors.js';
import { nameList } from './action-output.js';
import { hasExtension, namedExample } from './upload-files.js';

// The answers of the spec show no such lists (addfiles, reply: "not shown"); a service that has
// them may call them any of these. A ticket's own list names every file it holds.
const SKIPPED_LISTS = ['skipped', 'skippedFiles', 'rejected'];
const KEPT_LISTS = ['saved', 'savedFiles', 'attached', 'uploaded', 'attachments'];
const TICKET_LISTS = ['attachments', 'files'];

/** Which of the files sent the service kept, by the names they were sent under. */
export interface KeptFiles {
  kept: string[];
  skipped: string[];
}

/** File names in a list the service may send as strings or as objects with a name. */
export function fileNamesIn(list: unknown): string[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list
    .map((entry) => (typeof entry === 'string' ? entry : isObject(entry) ? stringField(entry, 'fileName', 'name', 'file') : undefined))
    .filter((name): name is string => name !== undefined);
}

/** The names of `sent` split by whether `isKept` says the service has them. */
function split(sent: readonly string[], isKept: (name: string) => boolean): KeptFiles {
  return { kept: sent.filter(isKept), skipped: sent.filter((name) => !isKept(name)) };
}

/** The sizes a list gives its files, by name in lower case (as `among` compares); entries without a size give none. */
function sizesIn(list: unknown): Map<string, number[]> {
  const sizes = new Map<string, number[]>();
  if (!Array.isArray(list)) return sizes;
  for (const entry of list) {
    const name = isObject(entry) ? stringField(entry, 'fileName', 'name', 'file') : undefined;
    const size = field(entry, 'size', 'fileSize', 'length');
    if (name === undefined || typeof size !== 'number') continue;
    const key = name.toLowerCase();
    sizes.set(key, [...(sizes.get(key) ?? []), size]);
  }
  return sizes;
}

/**
 * The names of `uploads` that `list` gives only other sizes than the one sent, where both are
 * known: a file of that name on the ticket that is not the file sent (a pipe re-sent empty).
 */
async function sizesDiffering(uploads: readonly UploadFile[], list: unknown): Promise<Set<string>> {
  const listed = sizesIn(list);
  const differing = new Set<string>();
  if (listed.size === 0) return differing;
  await Promise.all(
    uploads.map(async (upload) => {
      const sizes = listed.get(upload.name.toLowerCase());
      if (sizes === undefined) return;
      const sent = await sentSize(upload);
      if (sent !== undefined && !sizes.includes(sent)) differing.add(upload.name);
    }),
  );
  return differing;
}

/** Whether a name is among `names`: without regard to case, as the service may store it. */
function among(names: readonly string[]): (name: string) => boolean {
  const known = new Set(names.map((name) => name.toLowerCase()));
  return (name) => known.has(name.toLowerCase());
}

/**
 * Which of `uploads`, sent to ticket `id` in the request `response` answers, the service kept;
 * undefined when neither the answer nor the ticket lists any files. Read back, a file counts as
 * kept when the ticket has a file of its name: an earlier one of that name means its type is
 * allowed. A failed read is exit 1 saying the change itself was done.
 */
export async function keptFiles(client: ApiClient, id: TicketId, uploads: readonly UploadFile[], response: ApiResponse): Promise<KeptFiles | undefined> {
  const sent = uploads.map((upload) => upload.name);
  const keptList = field(response.body, ...KEPT_LISTS);
  const skipped = fileNamesIn(field(response.body, ...SKIPPED_LISTS));
  if (skipped !== undefined) {
    const isSkipped = among(skipped);
    const differing = await sizesDiffering(uploads, keptList);
    return split(sent, (name) => !isSkipped(name) && !differing.has(name));
  }
  const kept = fileNamesIn(keptList);
  if (kept !== undefined) {
    const isKept = among(kept);
    const differing = await sizesDiffering(uploads, keptList);
    return split(sent, (name) => isKept(name) && !differing.has(name));
  }
  let ticket: unknown;
  try {
    ticket = (await client.send(plans.getTicket(id))).body;
  } catch (error) {
    const reason = error instanceof TktError ? [error.message, ...error.details] : [String(error)];
    throw new OperationError(`#${id}: could not read the ticket back to see which files the service kept`, { details: reason, cause: error });
  }
  const ticketList = field(ticket, ...TICKET_LISTS);
  const onTicket = fileNamesIn(ticketList);
  if (onTicket === undefined) return undefined;
  const isOnTicket = among(onTicket);
  const differing = await sizesDiffering(uploads, ticketList);
  return split(sent, (name) => isOnTicket(name) && !differing.has(name));
}

/** "1 of 2 files", "2 of 2 files", "1 of 1 file". */
function ofFiles(count: number, total: number): string {
  return `${count} of ${total} file${total === 1 ? '' : 's'}`;
}

/** The line a command prints for the files kept: "attached 1 of 2 files to #7: a.txt". */
export function keptLine(files: KeptFiles, id: TicketId): string {
  return `attached ${ofFiles(files.kept.length, files.kept.length + files.skipped.length)} to #${id}: ${nameList(files.kept)}`;
}

/**
 * The files sent, for a hint that names one: `as` how the command took them, `--attach FILE` or,
 * for `tkt attach`, its arguments.
 */
export interface SentFiles {
  uploads: readonly UploadFile[];
  as: '--attach' | 'arguments';
}

/**
 * Tells what became of the files after the ticket change was reported: with --json the kept and
 * skipped names as a JSON Line on stderr (stdout is the API's body); any skipped file is exit 1
 * naming it; with no way to tell, a warning.
 */
export async function reportKeptFiles(ctx: Context, id: TicketId, files: KeptFiles | undefined, sent: SentFiles): Promise<void> {
  if (files === undefined) {
    await ctx.output.warning(`the service did not say which files it kept, and #${id} lists none: "${tktCommand(ctx, `show ${id}`)}" shows what it has\n`);
    return;
  }
  await ctx.output.aside(files);
  if (files.skipped.length > 0) throw skippedFilesError(files, id, { run: ctx, sent });
}

/** The failure of the files the service skipped; `named` puts the ticket first, as a line of several tickets does. */
export function skippedFilesError(
  files: KeptFiles,
  id: TicketId,
  options: { named?: boolean; run: RunPlace; sent?: SentFiles | undefined },
): FilesSkippedError {
  const counted = ofFiles(files.skipped.length, files.kept.length + files.skipped.length);
  return new FilesSkippedError(`${options.named ? `#${id}: ` : ''}the service did not keep ${counted}: ${nameList(files.skipped)}`, {
    details: files.kept.length > 0 ? [`kept: ${nameList(files.kept)}`] : [],
    hint:
      namingHint(files, id, options) ??
      `the service keeps only the file types it allows; "${tktCommand(options.run, `show ${id}`)}" lists the ticket's attachments`,
  });
}

/**
 * For a file skipped under a name without an extension (`<(cmd)` sends `63`, `/dev/stdin` sends
 * `stdin`), the fix: name the upload (README: Naming an upload). Undefined for other names: a
 * type the service refuses is not for tkt to rename.
 */
export function namingHint(files: KeptFiles, id: TicketId, options: { run: RunPlace; sent?: SentFiles | undefined }): string | undefined {
  const skipped = new Set(files.skipped);
  const unnamed = options.sent?.uploads.find((upload) => skipped.has(upload.name) && !hasExtension(upload.name));
  if (unnamed === undefined) return undefined;
  const example = namedExample(unnamed);
  const fix = options.sent!.as === 'arguments' ? `"${tktCommand(options.run, `attach ${id} ${example}`)}"` : `--attach ${example}`;
  return `"${unnamed.name}" has no extension, and the service keeps only the file types it allows: name the upload with one, as ${fix}`;
}

/** After a single-ticket upload with --attach: which files were kept, reported as reportKeptFiles does. */
export async function checkKeptFiles(ctx: Context, client: ApiClient, id: TicketId, uploads: readonly UploadFile[], response: ApiResponse): Promise<void> {
  if (uploads.length === 0) return;
  await reportKeptFiles(ctx, id, await keptFiles(client, id, uploads, response), { uploads, as: '--attach' });
}
