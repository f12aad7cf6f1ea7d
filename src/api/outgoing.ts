// What a plan sends: its body, the headers that body needs, and what the --debug trace shows of
// it (secrets replaced: the trace is printed).
import { redactJson } from './redact.js';
import type { RequestPlan } from './types.js';
import { buildMultipart, type Multipart, type Upload } from './upload.js';

/** How much of a JSON body the trace shows. */
const MAX_TRACED_JSON = 500;

export interface Outgoing {
  headers: Record<string, string>;
  /** A multipart upload with files is read from disk as it is sent (upload.ts). */
  body: string | Buffer | Upload | undefined;
  /** What the trace shows of the body, already redacted: made only for a trace. */
  summary: () => string;
}

export const isUpload = (body: Outgoing['body']): body is Upload => typeof body === 'object' && !Buffer.isBuffer(body);

/** What `plan` sends; a promise only for a form with files, whose sizes are read from disk (upload.ts). */
export function buildOutgoing(plan: RequestPlan): Outgoing | Promise<Outgoing> {
  if (plan.form) {
    const multipart = buildMultipart(plan.form);
    return multipart instanceof Promise ? multipart.then(multipartOutgoing) : multipartOutgoing(multipart);
  }
  if (plan.json !== undefined) {
    return {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(plan.json),
      summary: () => ` json ${truncate(JSON.stringify(redactJson(plan.json)), MAX_TRACED_JSON)}`,
    };
  }
  return { headers: {}, body: undefined, summary: noSummary };
}

const noSummary = (): string => '';

function multipartOutgoing({ headers, body, names }: Multipart): Outgoing {
  return { headers, body, summary: () => ` multipart [${names().join(', ')}]` };
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
