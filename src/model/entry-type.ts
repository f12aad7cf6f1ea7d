// A conversation entry's kind in the words people use, as `tkt show` and `tkt watch` say it.
import type { ConversationEntry } from './ticket.js';

// The service's entry types, as people say them; others are split into words.
const ENTRY_TYPES: Readonly<Record<string, string>> = {
  requesterreply: 'Reply from requester',
  reply: 'Reply',
  forward: 'Forward',
  close: 'Closed',
  resolve: 'Resolved',
  note: 'Note',
};

/** "RequesterReply" as "Reply from requester"; a draft says so. */
export function entryType(entry: Pick<ConversationEntry, 'type' | 'draft'>): string {
  const raw = entry.type ?? 'Message';
  const words = ENTRY_TYPES[raw.toLowerCase()] ?? raw.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (first) => first.toUpperCase());
  return entry.draft ? `${words} (draft)` : words;
}
