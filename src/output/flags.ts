// The per-command output options of contract section 9; --json, -q, --query and --raw are global.
import type { Command } from 'commander';

/** --fields (list, show, create, metadata, status). */
export function addFieldsOption(command: Command): Command {
  return command.option('--fields <list>', 'JSON with only these members, comma-separated, any case (implies --json)');
}

/** --csv and --columns (list, metadata). */
export function addTableOptions(command: Command): Command {
  return command
    .option('--csv', 'RFC 4180 CSV with a header row')
    .option('--columns <list>', 'columns of the table, TSV or CSV, comma-separated');
}
