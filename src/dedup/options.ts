// `tkt create`'s dedup options as typed, checked before anything else, and what they turn the
// create's values into: the title carrying the key, the requester reply for an existing ticket.
import { plans } from '../api/plans.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import type { Lookups } from '../lookups/types.js';
import type { PlannedRequest } from '../cmdutil/dry-run.js';
import type { CreateEndpoint } from '../fields/created.js';
import type { RawFieldValues } from '../fields/options.js';
import { parseDedupKey, titleWithKey } from './key.js';
import { keyRequester } from './lookup.js';
import type { DedupCreate, OnExisting } from './create.js';

export interface DedupFlags {
  dedupKey?: string | undefined;
  onExisting?: OnExisting | undefined;
  reopen?: boolean | undefined;
}

export interface DedupOptions {
  /** undefined: an ordinary create. */
  key: string | undefined;
  onExisting: OnExisting;
  reopen: boolean;
  /** The values with the title ending in ` [KEY]` (as they are without a key or a title yet). */
  withKey(values: RawFieldValues): RawFieldValues;
}

export function dedupOptions(flags: DedupFlags): DedupOptions {
  if (flags.dedupKey === undefined) {
    const stray = [...(flags.onExisting === undefined ? [] : ['--on-existing']), ...(flags.reopen === true ? ['--reopen'] : [])];
    if (stray.length > 0) throw new UsageError(`${stray.join(' and ')} ${stray.length === 1 ? 'goes' : 'go'} with --dedup-key KEY`);
    return { key: undefined, onExisting: 'reply', reopen: false, withKey: (values) => values };
  }
  const key = parseDedupKey(flags.dedupKey);
  return {
    key,
    onExisting: flags.onExisting ?? 'reply',
    reopen: flags.reopen === true,
    withKey: (values) => (typeof values.title === 'string' ? { ...values, title: titleWithKey(values.title, key) } : values),
  };
}

/** What a create with a key starts from: the endpoint, the values given, the create as planned, and whether it is a dry run. */
export interface KeyedCreateInput {
  endpoint: CreateEndpoint;
  values: RawFieldValues;
  create: PlannedRequest;
  dryRun: boolean;
}

/** The create, and the requester reply that carries the same occurrence to an existing ticket. */
export async function dedupCreateSpec(ctx: Context, lookups: Lookups, dedup: DedupOptions & { key: string }, create: KeyedCreateInput): Promise<DedupCreate> {
  const { requester, description } = create.values;
  // The files the create would send, under the names it would send them by.
  const files = create.create.form?.files ?? [];
  // A job that gives way to an older ticket sends them again (create.ts): a pipe is kept as it is first sent.
  const createForm = create.create.form;
  const createOnce =
    createForm === undefined ? create.create : { ...create.create, form: { ...createForm, files: files.map((file) => ({ ...file, resend: true })) } };
  if (typeof requester !== 'string') throw new UsageError('--dedup-key needs --requester: the occurrence is added as a reply from the requester');
  // The reply is posted as the requester, by username: `new` takes one as given, register a user
  // ID, username or name. Only the requester's own tickets of the key count: register's is known
  // by user ID too, new's by the username given.
  const own = await keyRequester(lookups, requester, create.endpoint === 'new');
  return {
    key: dedup.key,
    onExisting: dedup.onExisting,
    reopen: dedup.reopen,
    dryRun: create.dryRun,
    create: createOnce,
    files,
    requester: own,
    reply: (existing) =>
      plans.requesterReply(existing.id, {
        username: own.username,
        subject: `Re: ${existing.title}`,
        message: typeof description === 'string' ? description : undefined,
        files,
      }),
  };
}
