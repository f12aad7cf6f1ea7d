// An upload as given: PATH, or PATH#NAME to send PATH under the name NAME (README: Naming an
// upload), as `gh release upload FILE#LABEL` and curl's `;filename=`. The service keeps a file only
// when its name's extension is on its allowed list (docs/service.md 4.11), and a pipe's name is its
// path's last part (`<(cmd)` is /dev/fd/63, `/dev/stdin` is stdin): NAME is how a CI job's piped
// log gets kept. Read here alone, for the check of who reads stdin (text-input.ts) and for the
// uploads (upload-files.ts).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { UploadFile } from '../api/types.js';
import { fileUpload } from '../api/upload-name.js';

/** An upload as the user gave it: `given` is the argument, for messages. */
export interface GivenUpload extends UploadFile {
  given: string;
  /** Why NAME cannot be sent (exit 2); undefined when it can. */
  nameProblem?: string;
}

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** Why `name`, given after '#', is no plain file name; undefined when it is one. */
function nameProblem(name: string): string | undefined {
  if (name === '') return "no name after '#'";
  if (name === '.' || name === '..') return `"${name}" is no file name`;
  // A '\' too: a service on Windows would take what follows it as the name, and name the file otherwise.
  if (/[/\\]/.test(name)) return `the name after '#' cannot hold '/' or '\\'`;
  if (CONTROL_CHARACTERS.test(name)) return "the name after '#' cannot hold control characters";
  // Sent as %22 (api/upload.ts), it would be stored and listed under another name than NAME.
  if (name.includes('"')) return `the name after '#' cannot hold '"': a multipart name carries it as %22`;
  return undefined;
}

/**
 * The upload `argument` gives: PATH#NAME splits at its last '#' (a NAME holds none), unless a file
 * of the whole argument exists (`notes#2.txt` is that file, as before PATH#NAME). `baseDir`: where
 * a relative path is found (create --from: beside its file). Reads the disk only for an argument
 * with a '#'.
 */
export function uploadOf(argument: string, baseDir?: string): GivenUpload {
  const whole = baseDir === undefined ? argument : resolve(baseDir, argument);
  const hash = argument.lastIndexOf('#');
  if (hash < 0 || existsSync(whole)) return { given: argument, ...fileUpload(whole) };
  const path = argument.slice(0, hash);
  const name = argument.slice(hash + 1);
  const problem = path === '' ? "no file before '#'" : nameProblem(name);
  return {
    given: argument,
    path: baseDir === undefined ? path : resolve(baseDir, path),
    name,
    ...(problem === undefined ? {} : { nameProblem: problem }),
  };
}
