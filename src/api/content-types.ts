// The Content-Type of an uploaded file's part, from its name's extension (README, Uploads). The
// service keeps or skips a file by its extension alone, so the type only informs whoever downloads
// it: a short table of what people attach to tickets, rather than a database of two thousand types
// loaded with every upload.
import { extname } from 'node:path';

/** Anything not in the table: bytes of no declared kind. */
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

const OPENXML = 'application/vnd.openxmlformats-officedocument';
const OPENDOCUMENT = 'application/vnd.oasis.opendocument';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  // Text, logs and data
  txt: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  json: 'application/json',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  html: 'text/html',
  htm: 'text/html',
  rtf: 'application/rtf',
  // Mail
  eml: 'message/rfc822',
  msg: 'application/vnd.ms-outlook',
  // Documents
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: `${OPENXML}.wordprocessingml.document`,
  xls: 'application/vnd.ms-excel',
  xlsx: `${OPENXML}.spreadsheetml.sheet`,
  ppt: 'application/vnd.ms-powerpoint',
  pptx: `${OPENXML}.presentationml.presentation`,
  odt: `${OPENDOCUMENT}.text`,
  ods: `${OPENDOCUMENT}.spreadsheet`,
  odp: `${OPENDOCUMENT}.presentation`,
  // Images
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  heic: 'image/heic',
  // Archives
  zip: 'application/zip',
  gz: 'application/gzip',
  tgz: 'application/gzip',
  tar: 'application/x-tar',
  '7z': 'application/x-7z-compressed',
  rar: 'application/vnd.rar',
  // Recordings
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
};

/** The type of a file named `name`, by its extension in any case; application/octet-stream if unknown. */
export function contentTypeOf(name: string): string {
  const extension = extname(name).slice(1).toLowerCase();
  return Object.hasOwn(CONTENT_TYPES, extension) ? CONTENT_TYPES[extension]! : DEFAULT_CONTENT_TYPE;
}
