// The name a file is uploaded under when none is given (README: Naming an upload): its base name,
// made safe for a multipart header. Used by the reading of upload arguments
// (cmdutil/upload-files.ts); the body (upload.ts) and the check of which files the service kept
// (cmdutil/attachments.ts) take the name from there.
import { basename } from 'node:path';
import type { UploadFile } from './types.js';

// The name goes into its part's headers (upload.ts), where a control character (an ESC, a
// newline) makes the body malformed and the service answers 400. Letters of any script stay.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

// A `"` goes into the header as %22, as browsers write it (upload.ts), and the service stores
// that: the name is %22 from the start, so the kept check and the report name what the service has.
export function uploadName(path: string): string {
  return basename(path).replace(CONTROL_CHARACTERS, '_').replaceAll('"', '%22');
}

/** `path` sent under its own name. */
export function fileUpload(path: string): UploadFile {
  return { path, name: uploadName(path) };
}
