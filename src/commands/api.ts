import { TICKETS_PATH } from '../api/plans.js';
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { FILE_FIELD, METHODS, planAnyRequest, sendAndPrint, type AnyRequestInput } from '../raw-request/any-request.js';
import { printDryRun } from '../cmdutil/dry-run.js';
import { collect } from '../util/option-text.js';
import { dryRunOption } from './shared-options.js';

export interface ApiOptions extends AnyRequestInput {
  dryRun?: boolean | undefined;
}

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('api')
    .description('Send an authenticated request to any endpoint and print the response body')
    .argument('<method>', `HTTP method: ${METHODS.join(', ')}`)
    .argument('<path>', `path under the base URL, starting with /, e.g. ${TICKETS_PATH}/42`)
    .option('-F, --field <key=value>', 'typed field: true, false, null and integers become JSON values; @FILE uploads FILE (multipart, streamed)', collect)
    .option('-f, --raw-field <key=value>', 'string field, sent as is', collect)
    .option('--input <file>', 'send the JSON in FILE (- for stdin) as the body; fields then go to the query string')
    .addOption(dryRunOption(program))
    .addHelpText(
      'after',
      `
Fields form a JSON body; for GET and HEAD (or with --input) they go to the query string.
"key[]=value" builds an array (repeated form fields in multipart). Any "@file" value sends
the whole request as multipart/form-data; files are sent as "${FILE_FIELD}" parts, the service's
only file field. Non-2xx answers exit like every other command (3 not found, 4 login, 5 permission),
their body printed on stdout as a success's (as gh api: | jq .errors reads it; --query not applied).
The body is the essential of a raw request: -q does not change what tkt api prints (it silences
notes on stderr); for the exit status alone, send stdout to /dev/null.

Examples:
  $ tkt api GET ${TICKETS_PATH}/42
  $ tkt api POST ${TICKETS_PATH} -F page=1 -F length=5 -f listType=MyOpenTickets
  $ tkt api POST ${TICKETS_PATH}/addfiles/42 -F Uploads=@screenshot.png
  $ tkt api POST ${TICKETS_PATH}/pickup/42
  $ tkt api POST ${TICKETS_PATH} --input table.json`,
    );
  host.action(command, ([method, path], { field, rawField, ...opts }, ctx) =>
    run({ method, path, typedFields: field ?? [], rawFields: rawField ?? [], ...opts }, ctx),
  );
}

export async function run(options: ApiOptions, ctx: Context): Promise<void> {
  const plan = await planAnyRequest(options, ctx);
  // JSON whatever the format, as every answer of `tkt api`.
  if (options.dryRun) return printDryRun(ctx, plan, { asData: true });
  await sendAndPrint(plan, ctx);
}
