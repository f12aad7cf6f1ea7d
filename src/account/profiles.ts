// What tkt knows of each profile at this machine, for `tkt profiles` (its columns) and `tkt logout`. A damaged
// token file never fails these: it lists as logged out, and logout deletes it all the same.
import { allProfileNames, existingProfileName } from '../config/session.js';
import type { StoredToken } from '../config/types.js';
import type { Context } from '../context/context.js';
import { OperationError } from '../errors.js';
import type { RecordColumn } from '../output/types.js';

export interface ProfileLine {
  name: string;
  active: boolean;
  url: string | null;
  loggedIn: boolean;
  /** A token is saved but has expired: logged out, yet not as one never logged in (README, Choices). */
  expired: boolean;
  username: string | null;
  expiresAt: string | null;
}

/** Every profile (allProfileNames: the same set whichever is active), sorted by name. */
export function profileLines(ctx: Context): ProfileLine[] {
  const active = existingProfileName(ctx);
  return allProfileNames(ctx.config).map((name) => {
    const token = tokenOrUnreadable(ctx, name);
    const readable = token === 'unreadable' ? undefined : token;
    const expired = readable !== undefined && !(Date.parse(readable.expiresAt) > ctx.now().getTime());
    return {
      name,
      active: name === active,
      url: ctx.config.getProfile(name).url ?? readable?.url ?? null,
      loggedIn: readable !== undefined && !expired,
      expired,
      username: readable?.username ?? null,
      expiresAt: readable?.expiresAt ?? null,
    };
  });
}

/** The profile's saved token, 'unreadable' for a file tkt cannot read, undefined for none. */
export function tokenOrUnreadable(ctx: Context, profile: string): StoredToken | 'unreadable' | undefined {
  try {
    return ctx.config.readToken(profile);
  } catch (error) {
    if (error instanceof OperationError) return 'unreadable';
    throw error;
  }
}

/** A saved token past its expiry is said as such, as every command that would use it says it. */
function profileState(p: ProfileLine): string {
  if (p.loggedIn) return `logged in${p.username === null ? '' : ` as ${p.username}`}`;
  return p.expired ? `token expired${p.username === null ? '' : ` (${p.username})`}` : 'not logged in';
}

// The active profile marked as kubectl marks its context, in a column of its own so that the
// piped lines (tab-separated, no header) keep it; a long URL gives way before the name and the state do.
export const PROFILE_COLUMNS: readonly RecordColumn<ProfileLine>[] = [
  { name: 'active', header: '', human: (p) => (p.active ? '*' : ''), priority: 2 },
  { name: 'name', header: 'NAME', human: (p) => p.name, priority: 2 },
  { name: 'url', header: 'URL', human: (p) => p.url ?? '(no URL)', machine: (p) => p.url, shrink: true, minWidth: 20, priority: 1 },
  {
    name: 'status',
    header: 'STATUS',
    human: profileState,
    shrink: true,
    priority: 2,
  },
];
