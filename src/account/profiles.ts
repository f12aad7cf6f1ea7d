// What tkt knows of each profile at this machine, for `tkt profiles` and `tkt logout`. A damaged
// token file never fails these: it lists as logged out, and logout deletes it all the same.
import { allProfileNames, existingProfileName } from '../config/session.js';
import type { StoredToken } from '../config/types.js';
import type { Context } from '../context/context.js';
import { OperationError } from '../errors.js';

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
