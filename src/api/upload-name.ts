// The name a file is uploaded under: its base name, made safe for a multipart header. Shared
// by the body that sends it (upload.ts) and the check of which files the service kept
// (tickets/attachments.ts), which compares the ticket's attachments with these names.
import { basename } from 'node:path';

// The name goes into its part's headers (upload.ts), where a control character (an ESC, a
// newline) makes the body malformed and the service answers 400. Letters of any script stay.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

export function uploadName(path: string): string {
  return basename(path).replace(CONTROL_CHARACTERS, '_');
}
