// What a command says when the request of its change was sent and never answered (docs/cli.md
// section 8): in doubt, and how to look before running it again (see rethrowInDoubt).
import { tktCommand, type RunPlace } from '../config/session.js';
import { shellWord } from '../util/shell-word.js';
import { rethrowInDoubt } from '../errors.js';

const BEFORE_AGAIN = 'before running this again';

/** How to look at ticket `id` whose change is in doubt: attach, reply, forward and the single-ID changes (close, pickup...) say it alike. */
export const changeInDoubtHint = (run: RunPlace, id: number): string => `look at it with "${tktCommand(run, `show ${id}`)}" ${BEFORE_AGAIN}`;

/** A change of ticket `id` (reply, forward, attach) in doubt: look at the ticket. */
export function changeInDoubt(run: RunPlace, id: number): (error: unknown) => never {
  return rethrowInDoubt({ ticket: `#${id}`, hint: changeInDoubtHint(run, id) });
}

/** A create in doubt: look for the ticket by its title; a key would have made the run repeatable. */
export function createInDoubt(run: RunPlace, title: string): (error: unknown) => never {
  return rethrowInDoubt({
    hint: `look for it with "${tktCommand(run, `list --search ${shellWord(title)}`)}" ${BEFORE_AGAIN}; --dedup-key makes a run safe to repeat`,
  });
}

/** A create with --dedup-key in doubt: the same command finds the ticket if it was created. */
export function keyedCreateInDoubt(key: string): (error: unknown) => never {
  return rethrowInDoubt({ hint: `running this again is safe: --dedup-key ${shellWord(key)} adds to the ticket if it was created` });
}
