// How far the files of an upload are sent, said on the wait notice's line (waiting.ts) at a
// terminal: `Uploading report.zip: 412 MB of 1 GB (40%)`, the file in flight named among several
// (`file 2 of 3`), a pipe's bytes sent alone (its size is known only once read). Bytes count as
// the connection takes them (api/upload.ts). Only tkt attach imports it: no other command's
// bundle carries it.
import { formatBytes } from '../api/body.js';
import type { UploadWatcher } from '../api/types.js';
import { sanitizeInline } from './sanitize.js';
import type { UploadProgress } from './waiting.js';

/** The file being sent: which of how many, its size when known, and its bytes the connection took. */
interface FileSending {
  name: string;
  index: number;
  count: number;
  size: number | undefined;
  taken: number;
}

/** `Uploading b.zip (file 2 of 3): 412 MB of 1 GB (40%)`; of a pipe, `Uploading stdin: 412 MB sent`. */
function uploadText(file: FileSending): string {
  const which = file.count > 1 ? ` (file ${file.index + 1} of ${file.count})` : '';
  const sent =
    file.size === undefined
      ? `${formatBytes(file.taken)} sent`
      : `${formatBytes(file.taken)} of ${formatBytes(file.size)} (${Math.floor((file.taken / file.size) * 100)}%)`;
  return `Uploading ${sanitizeInline(file.name)}${which}: ${sent}`;
}

export const uploadProgress: UploadProgress = (plan, line): UploadWatcher | undefined => {
  const files = plan.form?.files ?? [];
  if (files.length === 0) return undefined;
  let sending: FileSending | undefined;
  return {
    fileStarted(index, size) {
      const file: FileSending = { name: files[index]?.name ?? '', index, count: files.length, size, taken: 0 };
      sending = file;
      line.instead(() => uploadText(file));
    },
    taken(bytes) {
      if (sending === undefined) return;
      sending.taken += bytes;
      // The text is made only when the line is drawn: a chunk costs an addition.
      line.redrawSoon();
    },
    bodySent() {
      sending = undefined;
      line.instead(undefined);
    },
  };
};
