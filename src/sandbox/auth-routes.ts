// POST /api/Users/authenticate (docs/service.md 4.0): tokens, wrong passwords and lock-out.
import { signToken } from './jwt.js';
import type { SandboxUser } from './model.js';
import { type HttpFailure, messageFailure, readJson, sendJson } from './http.js';
import { fieldsFromJson } from './form.js';
import type { SandboxStore } from './store.js';
import { type Call } from './call.js';
const TOKEN_LIFETIME_SECONDS = 7 * 24 * 3600;

export function issueToken(store: SandboxStore, user: SandboxUser, now: Date, expiresInSeconds = TOKEN_LIFETIME_SECONDS): string {
  const iat = Math.floor(now.getTime() / 1000);
  return signToken(
    { sub: user.id, unique_name: user.username, email: user.email, permissions: [...user.permissions], iat, exp: iat + expiresInSeconds },
    store.state.secret,
  );
}

export async function authenticate(call: Call): Promise<void> {
  const credentials = fieldsFromJson(await readJson(call.req));
  const read = (name: string): string => credentials.text(name) ?? '';
  const wrongCredentials = messageFailure(401, 'Username or password is incorrect.');
  const domain = read('Domain');
  // Only local accounts exist here: any directory domain is unknown.
  if (domain !== '') throw messageFailure(401, `Unknown domain "${domain}".`);
  const login = read('Email');
  const user = call.store.userByUsername(login) ?? call.store.userByEmail(login);
  if (!user || user.password === null) throw wrongCredentials;
  const now = call.config.now();
  if (user.lockedUntil !== null) {
    if (user.lockedUntil > now.toISOString()) throw lockedOut(user.lockedUntil);
    user.lockedUntil = null;
    user.failedLogins = 0;
  }
  if (read('Password') !== user.password) {
    user.failedLogins++;
    if (user.failedLogins >= call.config.lockoutThreshold) {
      user.failedLogins = 0;
      user.lockedUntil = new Date(now.getTime() + call.config.lockoutMs).toISOString();
      call.store.changed();
      throw lockedOut(user.lockedUntil);
    }
    call.store.changed();
    throw wrongCredentials;
  }
  user.failedLogins = 0;
  call.store.changed();
  sendJson(call.res, 200, {
    Id: user.id,
    Username: user.username,
    FirstName: user.firstName,
    LastName: user.lastName,
    Email: user.email,
    Avatar: `${call.baseUrl}/avatars/${user.username}.png`,
    UserSettings: { Theme: 'light', Language: 'en-GB', TimeZone: 'UTC' },
    Token: issueToken(call.store, user, now),
  });
}

function lockedOut(until: string): HttpFailure {
  return messageFailure(401, `The account is locked out after too many failed sign-in attempts. Try again after ${until}.`);
}
