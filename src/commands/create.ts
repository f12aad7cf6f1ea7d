// tkt create: register a ticket (docs/service.md 4.3), or with --integration the `new` endpoint (4.15).
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { whyNothingIsAsked } from '../context/nothing-asked.js';
import { createFromOptions, type CreateFromFlags } from '../bulk/create-from-options.js';
import { OperationError, UsageError } from '../errors.js';
import { createLookups } from '../lookups/index.js';
import { fieldsOption } from '../output/flags.js';
import { detailLines } from '../output/reflow.js';
import { fillTicketFields } from '../prompts/fill.js';
import { answerAssigneeMe } from '../prompts/acting-user.js';
import { checkKeptFiles } from '../cmdutil/attachments.js';
import {
  checkCreate,
  createEndpoint,
  createRequest,
  createdId,
  keepDueCommand,
  printCreated,
  replacedDue,
  replacedDueText,
  withCreatedTicket,
} from '../fields/created.js';
import { printDryRun } from '../cmdutil/dry-run.js';
import { confirmSummary, formSummary } from '../cmdutil/form-summary.js';
import { createInDoubt } from '../cmdutil/in-doubt.js';
import { sendChange } from '../cmdutil/send-change.js';
import { addFieldOptions, assertFieldsApply, flagOf, givenKeys, pickFieldValues, type RawFieldValues } from '../fields/options.js';
import { checkFields } from '../fields/values.js';
import { assertSingleStdinReader, readTextOption } from '../cmdutil/text-input.js';
import { concurrencyOption, dryRunOption } from './shared-options.js';
import { keepTypedText, optionWords, type Resend, type TypedText } from '../cmdutil/drafts.js';
import { dedupCreateSpec, dedupOptions, type DedupFlags } from '../dedup/options.js';
import { collect } from '../util/option-text.js';

export interface CreateOptions extends CreateFromFlags, DedupFlags {
  values: RawFieldValues;
  descriptionFile?: string | undefined;
}

const EXAMPLES = `
Required unless asked for at a terminal: --title --description --requester --site --department
--status (with --integration: --title --description --requester). Lookup options take a name
or an ID (--site "Head Office", --status open, --priority 3); --assignee @me is you.

The service saves attachments only with file types it allows and skips the others silently:
tkt names each skipped file and exits 1, the ticket created all the same.

Output: the new ticket's ID; --json the service's response (--fields id,title some members, --query
any JMESPath; with --dry-run both see the form it would send); -q the ID alone, unless --json,
--fields or --query asks for more.

Examples:
  $ tkt create                       # at a terminal: asks for everything
  $ tkt create --title "Printer on fire" --description - --requester aberg \\
      --site "Head Office" --department IT --status Open --priority high \\
      < notes.txt
  $ tkt create --title "VPN down" --description-file report.md \\
      --requester aberg --site 1 --department 2 --status 1 --assignee @me \\
      --due +4h --attach vpn.log
  $ tkt create --integration --title "Build failed" --description "see CI" \\
      --requester aberg -q
  $ tkt create --title T --description D --requester aberg --site 1 \\
      --department 1 --status 1 --fields id,dueDate
  $ tkt create --title T --description D --requester aberg --site 1 \\
      --department 1 --status 1 --dry-run

One ticket per CI failure (--dedup-key): the title ends with [KEY]; when a ticket with the
key is open, the new occurrence is a requester reply on it (--on-existing skip: nothing), and
with --reopen a resolved or closed one is re-opened so. Output: created, updated, skipped or
reopened #ID (exit 0); -q the ID; --json {"id","action","key"}. --dry-run says which.
  $ tkt create --integration --title "Nightly failed" --description-file a.log \\
      --requester ci-bot --attach a.log --dedup-key ci:nightly

Many tickets from a file (--from): JSON Lines (one object per line) or CSV with a header row;
columns are named like the options above (title, description, requester, site, ...); the
repeatable ones take a JSON list, or text: tag and attach separated by ";", cc by "," or ";" as
--cc; attach files are found in the file's folder (--attach-dir DIR: in DIR; stdin: here) and
must be in it, links followed: an absolute path or ../ out of it, a link leading out and tkt's
config folder are refused, so a file from someone else cannot attach your keys or token. Every
row is checked before the first ticket is created; --from - reads stdin. A report (JSON Lines, default
FILE.report.jsonl; create-from.report.jsonl here for stdin or a pipe) maps
each row to its new ID or its error, written before each request leaves; --resume REPORT skips
the rows it shows as created, and names those in doubt (sent, answer unknown: interrupted or
timed out) without sending them again. Check them in the service, then settle each: --created
ROW=ID records one it has, --retry-in-doubt ROWS (5,7 or 5-7) sends again those it does not.

Output: a line per row; --json one JSON array of {"row","ok","id"} or {"row","ok":false,"status","error"};
-q the new IDs. Exit 2 when a row is invalid (nothing is sent), 1 when a row failed.
  $ tkt create --from tickets.csv
  $ tkt create --from tickets.csv --resume tickets.csv.report.jsonl  # again
  $ tkt create --from alerts.jsonl --integration --concurrency 16 --json`;

export function register(program: Program, host: CommandHost): void {
  const base = program
    .command('create')
    .description('Create a ticket (asks for missing values at a terminal)')
    .option('--integration', 'use the integration endpoint: needs only a valid token; requester by username')
    .option('--description-file <file>', 'read the description from a file (- for stdin)')
    .addOption(fieldsOption(program));
  const command = addFieldOptions(base, ['register', 'new'])
    .addOption(dryRunOption(program))
    .option('--from <file>', 'create one ticket per row of a JSON Lines or CSV file (- for stdin)')
    .option('--report <file>', "with --from: where to record each row's new ID or error (default FILE.report.jsonl)")
    .option('--resume <report>', 'with --from: skip the rows this report shows as created (and those in doubt)')
    .option('--retry-in-doubt [rows]', 'with --resume: send again the rows in doubt the service does not have (e.g. 5,7; all when bare: check them first)')
    .option('--created <row=id>', 'with --resume: record that the service created this row in doubt as ticket ID (repeatable)', collect)
    .option(
      '--attach-dir <dir>',
      "with --from: the folder the rows' attach files are found in and must stay in (default: FILE's folder; the current folder for stdin)",
    )
    .addOption(concurrencyOption(program, 'with --from: tickets created'))
    .option('--dedup-key <key>', 'one open ticket per key: add this occurrence to the open ticket whose title ends with [KEY] instead')
    .addOption(
      program.createOption('--on-existing <action>', 'with --dedup-key: what an open ticket gets (default: reply)').choices(['reply', 'skip'] as const),
    )
    .option('--reopen', 'with --dedup-key: re-open a resolved or closed ticket of the key rather than create one')
    .addHelpText('after', EXAMPLES);
  // Ctrl-C during --from stops new creates and lets those in flight finish and be recorded; a
  // single create's answer is awaited and told (cmdutil/send-change.ts).
  host.action(command, (_args, opts, ctx) => run({ ...opts, values: pickFieldValues(opts) }, ctx), { graceful: true });
}

/**
 * The create that sends a description kept in drafts/ (README, Drafts): the values given or
 * chosen so far (those still missing are asked again), and the key's options.
 */
function resendDescription(options: CreateOptions, values: RawFieldValues): Resend {
  const fields = Object.entries(values).filter(([key]) => key !== 'description');
  const words = optionWords([
    ['--integration', options.integration],
    ...fields.map(([key, value]) => [flagOf(key), value] as const),
    ['--dedup-key', options.dedupKey],
    ['--on-existing', options.onExisting],
    ['--reopen', options.reopen],
  ]);
  return { words: ['create', ...words].join(' '), fileOption: '--description-file' };
}

export async function run(options: CreateOptions, ctx: Context): Promise<void> {
  const fromFile = createFromOptions(
    options,
    [...givenKeys(options.values).map(flagOf), ...(options.descriptionFile === undefined ? [] : ['--description-file'])],
    [
      ...(options.dedupKey === undefined ? [] : ['--dedup-key']),
      ...(options.onExisting === undefined ? [] : ['--on-existing']),
      ...(options.reopen === true ? ['--reopen'] : []),
    ],
  );
  if (fromFile !== undefined) return (await import('../bulk/create-from.js')).runCreateFrom(fromFile, ctx);

  // The key is checked first: a bad one is exit 2 with nothing sent and nothing asked.
  const dedup = dedupOptions(options);
  const endpoint = createEndpoint(options.integration);
  assertFieldsApply(endpoint, options.values, options.integration ? '--integration' : 'tkt create without --integration');
  const description = typeof options.values.description === 'string' ? options.values.description : undefined;
  const attach = options.values.attach;
  assertSingleStdinReader({
    texts: [['--description', description]],
    files: [['--description-file', options.descriptionFile]],
    paths: [['--attach', typeof attach === 'string' ? [attach] : attach]],
  });
  // Nothing named at all: a person at a terminal wants to be walked through the whole form.
  const fullyInteractive = givenKeys(options.values).length === 0 && options.descriptionFile === undefined;
  const descriptionText = await readTextOption(ctx, {
    flag: '--description',
    fileFlag: '--description-file',
    text: description,
    file: options.descriptionFile,
  });
  let values: RawFieldValues = dedup.withKey({ ...options.values, description: descriptionText });

  // Everything checkable without the network fails first, before any prompt or request.
  const { badValues, unreadableFiles, missing } = await checkCreate(endpoint, values, ctx.now(), '--attach');
  const problem = badValues ?? unreadableFiles;
  if (problem !== undefined) throw problem;
  if (missing.length > 0 && !ctx.io.canPrompt) {
    const { reason, toBeAsked } = whyNothingIsAsked(ctx);
    throw new UsageError(`missing required option${missing.length === 1 ? '' : 's'} (${reason})`, {
      details: detailLines(missing.join(', ')),
      hint: `give them as options, or ${toBeAsked} to be asked`,
    });
  }

  const lookups = createLookups(ctx);
  // Values typed at prompts are shown back, with names for the IDs, before anything is sent.
  const asked = ctx.io.canPrompt && (missing.length > 0 || fullyInteractive);
  // A description typed at the terminal is kept in drafts/ if the ticket is not created
  // (README, Drafts), unless the user says no to creating it; the command that sends it holds the
  // values given and answered so far.
  let typed: Omit<TypedText, 'resend'> | undefined;
  const draft = { stem: 'description', was: 'your description was' };
  const answered = (filled: Readonly<RawFieldValues>) => {
    values = { ...filled };
    if (descriptionText === undefined && typeof filled.description === 'string') typed = { text: filled.description, ...draft };
  };
  const sent = await keepTypedText(
    ctx,
    () => (typed === undefined ? undefined : { ...typed, resend: resendDescription(options, values) }),
    async () => {
      if (asked) values = await fillTicketFields(ctx, lookups, values, { endpoint, optional: fullyInteractive, answered });
      values = dedup.withKey(await answerAssigneeMe(ctx, lookups, values));
      const request = await createRequest(endpoint, checkFields(endpoint, values, ctx.now()), lookups, { labels: options.dryRun === true || asked });

      const once =
        dedup.key === undefined
          ? undefined
          : await dedupCreateSpec(ctx, lookups, { ...dedup, key: dedup.key }, { endpoint, values, create: request, dryRun: options.dryRun === true });
      const createOnce = async () => (await import('../dedup/create.js')).createOnce(ctx, once!);

      if (options.dryRun) return void (await (once === undefined ? printDryRun(ctx, request, { shapesForm: true }) : createOnce()));
      if (asked) {
        await confirmSummary(
          ctx,
          (width) => formSummary(endpoint, request.form!, request, width),
          (on) => (once === undefined ? `Create this ticket${on}?` : `Create this ticket${on}, or add it to the open ticket of key ${once.key}?`),
          // A description typed and then declined is dropped, as gh's Cancel discards it (README, Drafts).
          { nothing: 'created', declined: () => (typed = undefined) },
        );
      }
      if (once !== undefined) return void (await createOnce());
      const client = await ctx.api();
      // A signal while names were resolved stops the create before it is sent; one while it is
      // sent lets the new ID be told before the run ends.
      return { client, request, response: await sendChange(ctx, client, request, createInDoubt(ctx, String(values.title))) };
    },
    // A description being typed when its question is closed (Ctrl-C, Esc), with the values answered until then.
    () => ({ ...draft, resend: resendDescription(options, values) }),
  );
  if (sent === undefined) return;
  const { client, request } = sent;
  const response = ctx.output.format === 'json' ? await withCreatedTicket(client, sent.response, ctx) : sent.response;
  // The ticket is reported first (its ID on stdout for -q): a skipped file fails after it.
  await printCreated(ctx, response);
  const id = createdId(response);
  const due = await replacedDue(client, request, response, id);
  if (id !== undefined) await checkKeptFiles(ctx, client, Number(id), request.form?.files ?? [], response);
  if (due !== undefined) {
    throw new OperationError(`ticket #${id} was created, but ${replacedDueText(due)}`, {
      hint: `to keep yours, run "${keepDueCommand(ctx, id!, due)}": an update that leaves the priority keeps the due date`,
    });
  }
}
