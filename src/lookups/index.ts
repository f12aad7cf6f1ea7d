// Lookup names (docs/cli.md section 6): `--site HQ` instead of `--site 3`.
//
// Rules, in order:
// - `@me` (requester, assignee) is the logged-in user's ID.
// - For lookup collections (numeric IDs), digits alone are taken as the ID without asking the
//   service: the write that uses it validates it anyway, and it saves a request per option.
// - For users (requester, assignee), a value equal to a user ID (any case) is that user.
// - A name (or alias, e.g. a username) equal to the value, case-insensitively.
// - For users, the form tkt prints a person in, "Anna Berg (aberg)": the user of that username
//   when the name is theirs.
// - A unique prefix of a name or alias.
// No match, or several, is a UsageError (exit 2) listing the candidates.
//
// Cache: each source (appmetadata, metadata) is kept per profile and base URL for
// LOOKUP_CACHE_TTL_MS, so a burst of commands costs one metadata request; `--refresh`
// refetches. Lookups are never scoped to a ticket (metadata/{id}): an update may change the
// category or group in the same command, and the scoped lists follow the old ones.
import { noUserError, tktCommand, type RunPlace } from '../config/session.js';
import { plans } from '../api/plans.js';
import { arrayField, field, isObject, stringField } from '../api/member-access.js';
import type { Context } from '../context/context.js';
import type { ConfigReader, ConfigStore } from '../config/types.js';
import { ApiError, InterruptedError, OperationError, StoppedBeforeSendingError, UsageError } from '../errors.js';
import { LOOKUP_FIELDS, type LookupFacts } from '../model/fields.js';
import { ME, type LookupEntry, type LookupKind, type Lookups, type TypedOption } from './types.js';
import { foldForMatch } from '../util/fold.js';
import { idProblem, parseWholeNumber } from '../util/ids.js';
import { nonBlank } from '../util/option-text.js';
import { isCI } from '../util/ci.js';
import { closestWord, editDistance } from '../util/closest.js';
import { shellWord } from '../util/shell-word.js';

/** Lookups are reused from the cache for ten minutes: long enough for a burst of commands,
 *  short enough that a renamed site shows up soon without --refresh. */
const LOOKUP_CACHE_TTL_MS = 10 * 60 * 1000;

interface KindSpec extends LookupFacts {
  /** Used in messages: "unknown sub-category ...". */
  label: string;
}

// Each kind's collection, as the field table gives it.
const KINDS = Object.fromEntries(LOOKUP_FIELDS.map((spec) => [spec.value.kind, { ...spec.lookup, label: spec.label.toLowerCase() }])) as Record<
  LookupKind,
  KindSpec
>;

/** Whether the kind's values may be ME: people (requesters, assignees). */
export function acceptsMe(kind: LookupKind): boolean {
  return KINDS[kind].people === true;
}

/** Entries of every kind one response holds, keyed by kind. */
type Collections = Partial<Record<LookupKind, LookupEntry[]>>;

/** More candidates than this and only the closest ones are listed. */
const MAX_CANDIDATES_SHOWN = 12;

export function lookupLabel(kind: LookupKind): string {
  return KINDS[kind].label;
}

/** The lookup entry of one item of a metadata collection; undefined when it names no ID or no name. */
function entryFromItem(item: unknown, spec: KindSpec): LookupEntry | undefined {
  const rawId = field(item, 'id');
  const id = typeof rawId === 'number' || (typeof rawId === 'string' && rawId !== '') ? rawId : undefined;
  const name = stringField(item, ...spec.entryNames);
  if (id === undefined || name === undefined) return undefined;
  if (spec.people !== true) return { id, name, aliases: [] };
  const username = stringField(item, 'userName', 'username');
  const aliases = [username, stringField(item, 'email')].filter((a): a is string => a !== undefined && a !== name);
  return { id, name, aliases, ...(username === undefined ? {} : { username }) };
}

/** Every kind whose collection a metadata response holds, read whatever the casing. */
export function collectionsOf(body: unknown): Collections {
  const collections: Collections = {};
  for (const [kind, spec] of Object.entries(KINDS) as [LookupKind, KindSpec][]) {
    if (!Array.isArray(field(body, ...spec.collection))) continue;
    const items = arrayField(body, ...spec.collection);
    collections[kind] = items.map((item) => entryFromItem(item, spec)).filter((e): e is LookupEntry => e !== undefined);
  }
  return collections;
}

function isCollections(value: unknown): value is Collections {
  return isObject(value) && Object.values(value).every(Array.isArray);
}

const lower = foldForMatch;
const namesOf = (entry: LookupEntry) => [entry.name, ...entry.aliases];

function describe(entry: LookupEntry): string {
  const aliases = entry.aliases.length > 0 ? `, ${entry.aliases.join(', ')}` : '';
  return `${entry.name} (id ${entry.id}${aliases})`;
}

function closest(entries: readonly LookupEntry[], value: string): LookupEntry[] {
  const wanted = lower(value);
  const score = (entry: LookupEntry) => Math.min(...namesOf(entry).map((name) => editDistance(wanted, lower(name).slice(0, wanted.length + 3))));
  return entries
    .map((entry) => ({ entry, score: score(entry) }))
    .sort((a, b) => a.score - b.score)
    .slice(0, MAX_CANDIDATES_SHOWN)
    .map(({ entry }) => entry);
}

/**
 * Why an error does not list people (requesters, technicians) by name, ID and username: no one is
 * at a terminal to read them, and a log would keep them (a CI log may be public; README: Lookup
 * names). Undefined at a terminal: the list is listed.
 */
function peopleUnlisted(ctx: LookupContext): string | undefined {
  if (isCI(ctx.env)) return 'in CI';
  if (!ctx.globals.input) return 'with --no-input';
  if (!ctx.io.stderrIsTTY) return 'without a terminal';
  return undefined;
}

/**
 * The line that stands for a list of people not listed (peopleUnlisted). `listedBy`: the command
 * that lists them (anywhere: piped too), where the hint does not name it already.
 */
const unlistedLine = (what: string, where: string, listedBy?: string) =>
  `(${what} not listed ${where}: they name people${listedBy === undefined ? '' : `; "${listedBy}" lists them`})`;

/** Entries a LookupError lists under a heading (`candidates`, `closest of 40`, `matches`). */
export interface ListedEntries {
  heading: string;
  entries: readonly LookupEntry[];
}

/** The candidates listed for an unknown `value`: all of them, or the closest; undefined when the service lists none. */
function candidatesOf(entries: readonly LookupEntry[], value: string): ListedEntries | undefined {
  if (entries.length === 0) return undefined;
  if (entries.length <= MAX_CANDIDATES_SHOWN) return { heading: 'candidates', entries };
  return { heading: `closest of ${entries.length}`, entries: closest(entries, value) };
}

/** The name of `entries` that `wanted` (lower case) is a misspelling of, as typed on a command line; undefined when none is close. */
function closestName(entries: readonly LookupEntry[], wanted: string): string | undefined {
  const names = entries.flatMap((entry) => namesOf(entry));
  const near = closestWord(wanted, names.map(lower));
  const name = near === undefined ? undefined : names.find((one) => lower(one) === near);
  return name === undefined ? undefined : shellWord(name);
}

/** A listing as the CLI prints it: the heading, then an entry a line. */
function listedLines(listed: ListedEntries | undefined): string[] {
  if (listed === undefined) return ['(the service lists none)'];
  return [`${listed.heading}:`, ...listed.entries.map((e) => `  ${describe(e)}`)];
}

/** The entry `value` names, following the rules at the top of this file (everything but `@me` and digits). */
/** A name that matches no entry, or several: exit 2, with the candidates as details. */
export class LookupError extends UsageError {
  constructor(
    /** Whether the name matched nothing, or several entries. */
    readonly reason: 'unknown' | 'ambiguous',
    /** Whose names: where the valid ones are listed. */
    readonly kind: LookupKind,
    message: string,
    options: { details?: string[]; hint?: string },
    /** The command that lists the valid names (in the hint of an unknown one). */
    readonly listedBy?: string,
    /** The entries the details list: the service's names, which tkt mcp fences (src/mcp/text.ts). */
    readonly listed?: ListedEntries,
  ) {
    super(message, options);
  }
}

/** `unknown site "x"`, or with the option as typed: `unknown user "x" for --by`. */
function lookupMessage(verdict: string, kind: LookupKind, value: string, typed: TypedOption | undefined): string {
  const quoted = JSON.stringify(value);
  return typed === undefined ? `${verdict} ${KINDS[kind].label} ${quoted}` : `${verdict} ${typed.noun} ${quoted} for ${typed.flag}`;
}

/**
 * `value`, unless it is empty or blank: exit 2 naming the option (`--status is empty`), as every
 * option given an empty value (docs/cli.md section 11), before any request; never "unknown".
 */
function nonBlankName(kind: LookupKind, value: string, typed: TypedOption | undefined): string {
  return nonBlank(value, `${typed?.flag ?? `--${kind}`} is empty`);
}

/**
 * The user `wanted` (folded) names as tkt prints a person, "Anna Berg (aberg)" (personLabel, `tkt
 * show`, get_ticket): by the username in the parentheses, when the name before them is that user's.
 */
function printedPerson(entries: readonly LookupEntry[], wanted: string): LookupEntry | undefined {
  const printed = /^(.+?)\s*\(([^()]+)\)$/.exec(wanted);
  if (printed === null) return undefined;
  const [name, username] = [printed[1]!.trim(), printed[2]!.trim()];
  return entries.find((e) => e.username !== undefined && lower(e.username) === username && lower(e.name) === name);
}

/**
 * `run`: where the run looked, for the metadata command of the hint. `unlistedPeople`: why people
 * are not listed (peopleUnlisted), when they are not.
 */
export function matchEntry(
  kind: LookupKind,
  value: string,
  entries: readonly LookupEntry[],
  typed?: TypedOption,
  run: RunPlace = { globals: {}, env: {} },
  unlistedPeople?: string,
): LookupEntry {
  const spec = KINDS[kind];
  const wanted = lower(value.trim());
  const unique = (found: LookupEntry[]) => [...new Map(found.map((e) => [String(e.id), e])).values()];

  if (spec.people === true) {
    const byId = entries.find((e) => lower(String(e.id)) === wanted);
    if (byId !== undefined) return byId;
  }
  const exact = unique(entries.filter((e) => namesOf(e).some((name) => lower(name) === wanted)));
  if (exact.length === 0 && spec.people === true) {
    const printed = printedPerson(entries, wanted);
    if (printed !== undefined) return printed;
  }
  const matches = exact.length > 0 ? exact : unique(entries.filter((e) => namesOf(e).some((name) => lower(name).startsWith(wanted))));
  const listedBy = tktCommand(run, `metadata --collection ${spec.collection[0]}`);
  if (matches.length === 1 && wanted !== '') return matches[0]!;
  const unlisted = spec.people === true ? unlistedPeople : undefined;
  if (matches.length === 0 || wanted === '') {
    // `me` for yourself: the word tkt takes is @me. A misspelt name (`Opne`) is said as meant, but a
    // person's only where people are listed (a terminal).
    const near = spec.people === true && closestWord(wanted, [ME]) !== undefined ? ME : unlisted === undefined ? closestName(entries, wanted) : undefined;
    const meant = near === undefined ? 'see' : `did you mean ${near}? or see`;
    const listed = unlisted === undefined ? candidatesOf(entries, value) : undefined;
    throw new LookupError(
      'unknown',
      kind,
      lookupMessage('unknown', kind, value, typed),
      { details: unlisted === undefined ? listedLines(listed) : [unlistedLine('candidates', unlisted)], hint: `${meant} "${listedBy}"` },
      listedBy,
      listed,
    );
  }
  const listed = unlisted === undefined ? { heading: 'matches', entries: matches.slice(0, MAX_CANDIDATES_SHOWN) } : undefined;
  throw new LookupError(
    'ambiguous',
    kind,
    `${lookupMessage('ambiguous', kind, value, typed)}: it matches ${matches.length}`,
    { details: unlisted === undefined ? listedLines(listed) : [unlistedLine('matches', unlisted, listedBy)], hint: 'type more of the name, or the ID' },
    undefined,
    listed,
  );
}

// Each lookup kind by the form fields that carry it (`SiteId`; the requester is `Requester` on new).
const KINDS_BY_FORM_FIELD = LOOKUP_FIELDS.flatMap((spec) =>
  [spec.formField, ...Object.values(spec.on ?? {}).map((facts) => facts.formField)]
    .filter((name): name is string => name !== undefined && name !== '')
    .map((name) => ({ kind: spec.value.kind, field: new RegExp(`\\b${name}\\b`, 'i') })),
);

/**
 * The lookup kinds a refusal of the service names by their form field (`Invalid SiteId: 9 does
 * not exist.`, `AssignedUser 7 is not a technician.`): an HTTP 400, or one a failure was caused by.
 */
export function kindsRefusedBy(error: unknown): LookupKind[] {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (!(cause instanceof ApiError) || cause.status !== 400) continue;
    const said = cause.serverMessages.join('\n');
    return [...new Set(KINDS_BY_FORM_FIELD.filter(({ field }) => field.test(said)).map(({ kind }) => kind))];
  }
  return [];
}

/**
 * After the service refused a value it named (kindsRefusedBy), that kind's list is fetched again
 * and cached, so that the next name resolved sees the service's list, not the cached one that
 * offered a value the service no longer has (README: Assistants). A fetch that fails changes nothing.
 */
export async function refetchRefused(lookups: Lookups, error: unknown): Promise<void> {
  const bySource = new Map(kindsRefusedBy(error).map((kind) => [KINDS[kind].source, kind]));
  await Promise.all([...bySource.values()].map((kind) => lookups.entries(kind, { fresh: true }).catch(() => undefined)));
}

/** What the lookups use of a run: completion builds just this, without the rest of a context. */
export type LookupContext = Pick<Context, 'api' | 'session' | 'globals' | 'env'> & {
  /** Read, and written where names were fetched (completion only reads: src/completion/complete.ts). */
  config: ConfigReader & Pick<ConfigStore, 'writeCache'>;
  output: Pick<Context['output'], 'warning'>;
  io: Pick<Context['io'], 'stderrIsTTY'>;
  /** The run's stop (Context.signal): once it has aborted, no lookup is fetched (README: Interruption). */
  signal?: AbortSignal;
};

/** A source's collections, and whether they came from the service in this run (not from the cache). */
interface Loaded {
  collections: Collections;
  fetched: boolean;
}

export interface LookupOptions {
  /**
   * Fetches under way, shared by lookups made one per call (tkt mcp): calls at once with a cold
   * cache cost one request per source, not one each.
   */
  fetching?: Map<string, Promise<Collections>>;
  /** People are listed in errors whoever runs: an assistant's (tkt mcp), read by it, not kept in a log. */
  listPeople?: boolean;
  /**
   * The caller's cancel (a tkt mcp call's): it waits no more for a shared fetch, which goes on
   * for the others waiting on it.
   */
  cancelled?: AbortSignal;
}

/** `fetched`, unless `cancelled` aborts first: then an InterruptedError at once, `fetched` left to run. */
function unlessCancelled<T>(fetched: Promise<T>, cancelled: AbortSignal | undefined): Promise<T> {
  if (cancelled === undefined) return fetched;
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(new InterruptedError('cancelled: no longer waiting for the lookups'));
    if (cancelled.aborted) return stop();
    cancelled.addEventListener('abort', stop, { once: true });
    void fetched.then(resolve, reject).finally(() => cancelled.removeEventListener('abort', stop));
  });
}

export function createLookups(ctx: LookupContext, options: LookupOptions = {}): Lookups {
  // One fetch per source per run, whatever the number of options resolved.
  const loaded = new Map<string, Promise<Loaded>>();
  // Said once a run: the sources' caches share the file, and its fault.
  let cacheFailureSaid = false;
  const unlistedPeople = options.listPeople === true ? undefined : peopleUnlisted(ctx);

  async function fetchSource(source: LookupFacts['source'], profile: string, key: string): Promise<Collections> {
    const api = await ctx.api();
    // A stopped run starts no new request (docs/cli.md section 8): the change these names were for is not sent either.
    if (ctx.signal?.aborted === true) throw new StoppedBeforeSendingError(ctx.signal.reason);
    const response = await api.send(source === 'appmetadata' ? plans.appMetadata() : plans.metadata());
    const collections = collectionsOf(response.body);
    await ctx.config.writeCache(profile, key, collections, LOOKUP_CACHE_TTL_MS).catch(async (error: unknown) => {
      // A lookup cache that cannot be written costs the next command a request, not this one its result.
      if (!(error instanceof OperationError)) throw error;
      if (cacheFailureSaid) return;
      cacheFailureSaid = true;
      // A warning, -q or not (README: Environment and files).
      await ctx.output.warning(`lookups not cached: ${error.message}\n`);
    });
    return collections;
  }

  async function loadSource(source: LookupFacts['source'], refetch: boolean): Promise<Loaded> {
    const session = await ctx.session();
    const key = `lookups ${session.baseUrl} ${source}`;
    if (!ctx.globals.refresh && !refetch) {
      const cached = ctx.config.readCache<unknown>(session.profile, key);
      if (isCollections(cached)) return { collections: cached, fetched: false };
    }
    const { fetching } = options;
    if (fetching === undefined) return { collections: await fetchSource(source, session.profile, key), fetched: true };
    const shared = `${session.profile} ${key}`;
    for (;;) {
      let fetched = fetching.get(shared);
      const ours = fetched === undefined;
      if (fetched === undefined) {
        fetched = fetchSource(source, session.profile, key);
        fetching.set(shared, fetched);
        const forget = () => fetching.delete(shared);
        fetched.then(forget, forget);
      }
      try {
        return { collections: await unlessCancelled(fetched, options.cancelled), fetched: true };
      } catch (error) {
        // The fetch of a call cancelled (or stopped) since is given up with it: one not stopped fetches again.
        if (ours || !(error instanceof InterruptedError) || ctx.signal?.aborted === true) throw error;
      }
    }
  }

  function load(source: LookupFacts['source'], refetch = false): Promise<Loaded> {
    let loading = loaded.get(source);
    if (loading === undefined || refetch) {
      const started = loadSource(source, refetch);
      loading = started;
      loaded.set(source, started);
      // A failed fetch is not remembered: the next call may succeed.
      started.catch(() => loaded.get(source) === started && loaded.delete(source));
    }
    return loading;
  }

  async function entries(kind: LookupKind, options: { fresh?: boolean } = {}): Promise<LookupEntry[]> {
    return (await load(KINDS[kind].source, options.fresh === true)).collections[kind] ?? [];
  }

  async function entryOf(kind: LookupKind, id: number | string): Promise<LookupEntry | undefined> {
    const wanted = lower(String(id));
    return (await entries(kind)).find((e) => lower(String(e.id)) === wanted);
  }

  /**
   * The entry `text` names. A name unknown to lookups read from the cache is looked for once more
   * in the service's lists: one renamed or added since they were cached (README: Lookup names).
   */
  async function matchLoaded(kind: LookupKind, text: string, typed: TypedOption | undefined): Promise<LookupEntry> {
    const { source } = KINDS[kind];
    const { collections, fetched } = await load(source);
    try {
      return matchEntry(kind, text, collections[kind] ?? [], typed, ctx, unlistedPeople);
    } catch (error) {
      if (fetched || !(error instanceof LookupError) || error.reason !== 'unknown') throw error;
      return matchEntry(kind, text, (await load(source, true)).collections[kind] ?? [], typed, ctx, unlistedPeople);
    }
  }

  async function me(kind: LookupKind): Promise<string> {
    const session = await ctx.session();
    if (session.userId === undefined) {
      throw noUserError(session, '"@me" is', `pass the ${KINDS[kind].label} as a user ID or username instead of @me`);
    }
    return session.userId;
  }

  async function resolve(kind: LookupKind, value: string, typed?: TypedOption): Promise<number | string> {
    const spec = KINDS[kind];
    const text = nonBlankName(kind, value, typed).trim();
    if (spec.people === true && lower(text) === ME) return me(kind);
    if (spec.people !== true && /^\d+$/.test(text)) {
      const id = parseWholeNumber(text, { min: 1 });
      if (id === undefined) throw new UsageError(`${lookupMessage('invalid', kind, value, typed)}: ${idProblem(text)}`);
      return id;
    }
    return (await matchLoaded(kind, text, typed)).id;
  }

  return {
    resolve,
    async username(kind, value, typed) {
      const text = nonBlankName(kind, value, typed).trim();
      if (lower(text) === ME) {
        const { username } = await ctx.session();
        if (username !== undefined) return username;
      }
      const id = await resolve(kind, text, typed);
      const entry = await entryOf(kind, id);
      if (entry?.username === undefined) {
        throw new UsageError(`${lookupMessage('cannot tell the username of', kind, value, typed)}: the service's user list names none`, {
          hint: 'give the username itself',
        });
      }
      return entry.username;
    },
    entries,
    async nameOf(kind, id) {
      return (await entryOf(kind, id))?.name;
    },
    entryOf,
  };
}
