// tkt profiles: every profile with saved settings or a token, the active one marked.
import type { CommandHost, Program } from '../cli.js';
import { resolveProfileName } from '../config/session.js';
import type { Context } from '../context.js';
import { sanitizeInline } from '../output/sanitize.js';

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('profiles')
    .description('List profiles and mark the active one (--profile, TKT_PROFILE or "default")')
    .addHelpText(
      'after',
      `
Examples:
  $ tkt profiles
  $ tkt profiles -q                  # names only
  $ tkt profiles --query "[?loggedIn].name" --raw`,
    );
  host.action(command, (_args, _opts, ctx) => run(ctx));
}

interface ProfileLine {
  name: string;
  active: boolean;
  url: string | null;
  loggedIn: boolean;
  username: string | null;
  expiresAt: string | null;
}

function describe(ctx: Context, name: string, active: string): ProfileLine {
  const token = readable(() => ctx.config.readToken(name));
  const expired = token !== undefined && !(Date.parse(token.expiresAt) > ctx.now().getTime());
  return {
    name,
    active: name === active,
    url: ctx.config.getProfile(name).url ?? token?.url ?? null,
    loggedIn: token !== undefined && !expired,
    username: token?.username ?? null,
    expiresAt: token?.expiresAt ?? null,
  };
}

/** A damaged token file lists the profile as logged out instead of failing the whole list. */
function readable<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

export async function run(ctx: Context): Promise<void> {
  const active = resolveProfileName(ctx);
  const names = [...new Set([...ctx.config.profileNames(), active])].sort();
  const profiles = names.map((name) => describe(ctx, name, active));
  await ctx.output.document(profiles, {
    quiet: () => profiles.map((p) => `${p.name}\n`).join(''),
    human: () =>
      profiles
        .map((p) => {
          const who = p.loggedIn ? `logged in${p.username === null ? '' : ` as ${sanitizeInline(p.username)}`}` : 'not logged in';
          return `${p.active ? '*' : ' '} ${sanitizeInline(p.name)}  ${p.url === null ? '(no URL)' : sanitizeInline(p.url)}  ${who}\n`;
        })
        .join(''),
  });
}
