// The per-command output options of docs/cli.md section 9; --json, -q, --query and --raw are global.
import { Option } from '@commander-js/extra-typings';

/** --fields (list, show, create, metadata, status). */
export const fieldsOption = () => new Option('--fields <list>', 'JSON with only these members, comma-separated, any case (implies --json)');

/** --csv (list, metadata). */
export const csvOption = () => new Option('--csv', 'RFC 4180 CSV with a header row');

/** --columns (list, metadata). */
export const columnsOption = () => new Option('--columns <list>', 'columns of the table, TSV or CSV, comma-separated');
