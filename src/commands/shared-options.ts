// The arguments and options several commands share, each written once: the same flag, help
// text and type in every command that has it. Typed through commander's extra-typings, so a
// handler gets `ids: string[]`, `dryRun?: true`, `attach?: string[]` without a cast.
import { Argument, Option } from '@commander-js/extra-typings';
import { CONCURRENCY_HELP } from '../config/settings.js';
import { ATTACH_FLAGS, attachHelp, collect } from '../util/option-text.js';

/** `ID...`: ticket IDs, or - to read them from stdin. */
export const idsArgument = (description = 'ticket IDs, or - to read them from stdin (first integer on each line)') => new Argument('<id...>', description);

/** One ticket's ID. */
export const idArgument = () => new Argument('<id>', 'ticket ID');

/** `--concurrency N` for a command that sends one request per ticket (or row). */
export const concurrencyOption = (what = 'tickets') => new Option('--concurrency <n>', `${what} ${CONCURRENCY_HELP}`);

/** `--dry-run`: what would be sent is printed (docs/cli.md section 7), nothing is sent. */
/** browse and show --web: the ticket's URL printed, no browser started. */
export const noBrowserOption = () => new Option('-n, --no-browser', 'print the URL instead of opening the browser');

export const dryRunOption = () => new Option('--dry-run', 'show what would be sent, send nothing');

/** `--attach FILE`, repeatable (undefined until given, so the help shows no default); `to` says what gets the files. */
export const attachOption = (to?: string) => new Option(ATTACH_FLAGS, attachHelp(to)).argParser(collect);
