import { describe, expect, it } from 'vitest';
import { fileErrorText } from '../../src/util/file-error.js';

describe('fileErrorText', () => {
  const errno = (code: string, message: string) => Object.assign(new Error(message), { code });

  it('says what went wrong in words, without the errno code or the system call', () => {
    expect(fileErrorText(errno('ENOENT', "ENOENT: no such file or directory, open '/x'"))).toBe('no such file');
    expect(fileErrorText(errno('EACCES', "EACCES: permission denied, open '/x'"))).toBe('permission denied');
    expect(fileErrorText(errno('EISDIR', 'EISDIR: illegal operation on a directory, read'))).toBe('a directory, not a file');
    expect(fileErrorText(errno('EMFILE', "EMFILE: too many open files, open '/x'"))).toBe('too many open files');
    expect(fileErrorText(new Error('disk on fire'))).toBe('disk on fire');
  });
});
