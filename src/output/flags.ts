// The per-command output options of docs/cli.md section 9; --json, -q, --query and --raw are global.
// The program makes them (commander's createOption): see src/commands/shared-options.ts.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';

type OptionMaker = Pick<CommandUnknownOpts, 'createOption'>;

/** --fields (list, show, create, metadata, status). */
export const fieldsOption = (program: OptionMaker) =>
  program.createOption('--fields <list>', 'JSON with only these members, comma-separated, any case (implies --json)');

/** --csv (list, metadata). */
export const csvOption = (program: OptionMaker) => program.createOption('--csv', 'RFC 4180 CSV with a header row');

/** --columns (list, metadata). */
export const columnsOption = (program: OptionMaker) => program.createOption('--columns <list>', 'columns of the table, TSV or CSV, comma-separated');
