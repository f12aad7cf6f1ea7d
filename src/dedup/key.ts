// The dedup key of a CI job's ticket (docs/cli.md section 12): what a key may
// hold, and how a title carries it, ` [KEY]` at its very end.
import { UsageError } from '../errors.js';
import { lengthProblem, TITLE_MAX_LENGTH } from '../model/fields.js';

const KEY_PATTERN = /^[A-Za-z0-9._:/-]{1,100}$/;
// A separator at either end, or a `:` or `/` next to another: "gh:$GITHUB_REPOSITORY/$GITHUB_JOB"
// with the variables unset is "gh:/", "ci-$RUN" is "ci-": one key, so one ticket, for every job
// of every repository. (`--` inside a key is left alone: slugs have it.)
const EMPTY_PART = /^[:/._-]|[:/._-]$|[:/]{2}/;

/** The key as given, or exit 2 saying what a key may hold (before any request). */
export function parseDedupKey(text: string): string {
  if (!KEY_PATTERN.test(text))
    throw new UsageError(`invalid --dedup-key ${JSON.stringify(text)}`, {
      details: ['a key is 1 to 100 characters: letters, digits and . _ : / -'],
      hint: 'e.g. --dedup-key "gh:$GITHUB_REPOSITORY/$GITHUB_JOB"',
    });
  // `--dedup-key $KEY -q` with KEY unset and unquoted made "-q" the key, and stdout no longer the bare ID the job reads.
  if (text.startsWith('-'))
    throw new UsageError(`--dedup-key ${JSON.stringify(text)} starts with "-": its value is probably missing`, {
      hint: 'a variable given unquoted and unset leaves --dedup-key the next word: quote it (--dedup-key "$KEY")',
    });
  if (EMPTY_PART.test(text))
    throw new UsageError(`--dedup-key ${JSON.stringify(text)} has an empty part (a separator at either end, or two : or / together)`, {
      hint: 'a variable in it is probably unset: the key would put the failures of every job that has it on one ticket',
    });
  return text;
}

const suffixOf = (key: string): string => ` [${key}]`;

/**
 * The title ending with ` [KEY]`: added unless the title already ends so. Longer than the service
 * takes is exit 2 saying that the suffix counted: the title as typed may be short enough.
 */
export function titleWithKey(title: string, key: string): string {
  const suffix = suffixOf(key);
  const keyed = title.endsWith(suffix) ? title : `${title}${suffix}`;
  const tooLong = lengthProblem(keyed, TITLE_MAX_LENGTH);
  if (tooLong === undefined) return keyed;
  throw new UsageError(`--title: the title with its dedup suffix ${JSON.stringify(suffix)} is ${tooLong}`, {
    hint: `shorten --title to at most ${TITLE_MAX_LENGTH - suffix.length} characters, or --dedup-key`,
  });
}

/** Whether the title carries the key: ` [KEY]` at its end, exactly (a search hit is not enough). */
export function titleHasKey(title: string | undefined, key: string): boolean {
  return title !== undefined && title.endsWith(suffixOf(key));
}
