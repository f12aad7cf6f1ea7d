// The dedup key of a CI job's ticket (docs/cli.md section 12): what a key may
// hold, and how a title carries it, ` [KEY]` at its very end.
import { UsageError } from '../errors.js';

const KEY_PATTERN = /^[A-Za-z0-9._:/-]{1,100}$/;

/** The key as given, or exit 2 saying what a key may hold (before any request). */
export function parseDedupKey(text: string): string {
  if (KEY_PATTERN.test(text)) return text;
  throw new UsageError(`invalid --dedup-key ${JSON.stringify(text)}`, {
    details: ['a key is 1 to 100 characters: letters, digits and . _ : / -'],
    hint: 'e.g. --dedup-key "gh:$GITHUB_REPOSITORY/$GITHUB_JOB"',
  });
}

const suffixOf = (key: string): string => ` [${key}]`;

/** The title ending with ` [KEY]`: added unless the title already ends so. */
export function titleWithKey(title: string, key: string): string {
  return title.endsWith(suffixOf(key)) ? title : `${title}${suffixOf(key)}`;
}

/** Whether the title carries the key: ` [KEY]` at its end, exactly (a search hit is not enough). */
export function titleHasKey(title: string | undefined, key: string): boolean {
  return title !== undefined && title.endsWith(suffixOf(key));
}
