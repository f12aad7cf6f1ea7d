// The per-command output options of docs/cli.md section 9; --json, -q, --query and --raw are global.
// The program makes them (commander's createOption): see src/commands/shared-options.ts.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { GlobalOptions } from '../config/globals.js';
import { shellWord } from '../util/shell-word.js';

type OptionMaker = Pick<CommandUnknownOpts, 'createOption'>;

/** --fields (list, show, create, metadata, status). */
export const fieldsOption = (program: OptionMaker) =>
  program.createOption('--fields <list>', 'JSON with only these members, comma-separated, any case (implies --json)');

/** --csv (list, metadata, profiles). */
export const csvOption = (program: OptionMaker) => program.createOption('--csv', 'RFC 4180 CSV with a header row');

/** --columns (list, metadata, profiles). */
export const columnsOption = (program: OptionMaker) => program.createOption('--columns <list>', 'columns of the table, TSV or CSV, comma-separated');

/**
 * The output options a run was given, as words of a command line: a hint that names the command
 * to run next (`to finish: tkt create --from ... --resume ...`) keeps the output the user asked
 * for (docs/cli.md section 9), so that a script reading --json or -q reads the same again.
 */
export function outputFlagWords(globals: GlobalOptions): string[] {
  return [
    ...(globals.json ? ['--json'] : []),
    ...(globals.quiet ? ['-q'] : []),
    ...(globals.query === undefined ? [] : ['--query', shellWord(globals.query)]),
    ...(globals.raw === true ? ['--raw'] : []),
    ...(globals.fields === undefined ? [] : ['--fields', shellWord(globals.fields)]),
    ...(globals.csv === true ? ['--csv'] : []),
    ...(globals.columns === undefined ? [] : ['--columns', shellWord(globals.columns)]),
  ];
}
