// Promises over node:fs's callbacks, for the few file calls of a request run (the HTTP client's
// forms, the readers of --message files) and of a Tab press (the templates, read to offer only those tkt can use). Not node:fs/promises: it loads readline and node:os
// with it (for FileHandle.readLines), about 1.1 MB of memory on Node 24 (0.4 MB on Node 20) and
// a millisecond on Node 20. Not util.promisify: on Node 24, loading node:util's exports for it
// loads thirty-odd more of Node's modules (parseArgs, diff, worker_threads...).
import { access, close, fstat, open, read, readdir, readFile, stat, write, type Stats } from 'node:fs';

type Done<T> = (error: NodeJS.ErrnoException | null, value: T) => void;
const promised = <T>(call: (done: Done<T>) => void) => new Promise<T>((resolve, reject) => call((error, value) => (error ? reject(error) : resolve(value))));

export const statPath = (path: string) => promised<Stats>((done) => stat(path, done));
/** All of a file's bytes (a regular file: a FIFO's read would wait for a writer). */
export const readWholeFile = (path: string) => promised<Buffer>((done) => readFile(path, done));
/** The names of the entries of a folder. */
export const readFolder = (path: string) => promised<string[]>((done) => readdir(path, done));
/** Rejects unless `path` allows `mode` (fs.constants.R_OK...). */
export const accessPath = (path: string, mode: number) => promised<void>((done) => access(path, mode, (error) => done(error, undefined)));
/** A file descriptor: close it with closeFd. */
export const openFd = (path: string, flags: string, mode?: number) => promised<number>((done) => open(path, flags, mode, done));
export const fstatFd = (fd: number) => promised<Stats>((done) => fstat(fd, done));
/** Reads up to `length` bytes at `position` of the file into `buffer` at `offset`; resolves with how many were read. */
export const readFdAt = (fd: number, buffer: Buffer, offset: number, length: number, position: number) =>
  promised<number>((done) => read(fd, buffer, offset, length, position, (error, bytesRead) => done(error, bytesRead)));
export const closeFd = (fd: number) => promised<void>((done) => close(fd, (error) => done(error, undefined)));
/** Writes all of `buffer` at the file's current position (a short write goes on with the rest). */
export async function writeFdAll(fd: number, buffer: Buffer): Promise<void> {
  for (let offset = 0; offset < buffer.length;) {
    offset += await promised<number>((done) => write(fd, buffer, offset, buffer.length - offset, null, (error, written) => done(error, written)));
  }
}
