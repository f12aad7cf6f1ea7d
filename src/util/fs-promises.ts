// node:fs/promises takes about a millisecond to load on Node 20: a module that every request run
// holds (the HTTP client's forms, the readers of --message files) takes it when it first reads
// a file, not when it loads.
import type * as FsPromises from 'node:fs/promises';

export const fsPromises = (): typeof FsPromises => process.getBuiltinModule('node:fs/promises');
