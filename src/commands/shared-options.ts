// The arguments and options several commands share, each written once: the same flag, help
// text and type in every command that has it. Typed through commander's extra-typings, so a
// handler gets `ids: string[]`, `dryRun?: true`, `attach?: string[]` without a cast. The program
// makes them (commander's createOption and createArgument), so that no command module needs
// commander itself: a run the quick path reads never loads it (docs/architecture.md).
import type { Program } from './host.js';
import { CONCURRENCY_HELP } from '../config/settings.js';
import { ATTACH_FLAGS, addressesHelp, attachHelp, collect } from '../util/option-text.js';

/** `ID...`: ticket IDs (ranges as tkt prints them), or - to read them from stdin. */
export const idsArgument = (program: Program, description = 'ticket IDs or ranges (1001-1010), or - to read them from stdin (first integer on each line)') =>
  program.createArgument('<id...>', description);

/** One ticket's ID. */
export const idArgument = (program: Program) => program.createArgument('<id>', 'ticket ID');

/** `--concurrency N` for a command that sends one request per ticket (or row). */
export const concurrencyOption = (program: Program, what = 'tickets') => program.createOption('--concurrency <n>', `${what} ${CONCURRENCY_HELP}`);

/** browse and show --web: the ticket's URL printed, no browser started. */
export const noBrowserOption = (program: Program) => program.createOption('-n, --no-browser', 'print the URL instead of opening the browser');

/** `--dry-run`: what would be sent is printed (docs/cli.md section 7), nothing is sent. */
export const dryRunOption = (program: Program) => program.createOption('--dry-run', 'show what would be sent, send nothing');

/** reply's and forward's `--to` and `--cc`: repeatable, each value one address or several. */
export const recipientsOption = <const Flags extends string>(program: Program, flags: Flags, description: string) =>
  program.createOption(flags, addressesHelp(description)).argParser(collect);

/** `--attach FILE`, repeatable (undefined until given, so the help shows no default); `to` says what gets the files. */
export const attachOption = (program: Program, to?: string) => program.createOption(ATTACH_FLAGS, attachHelp(to)).argParser(collect);
