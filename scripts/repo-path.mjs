// A file's path from the repository's root, with forward slashes on every system: how the build
// names modules (esbuild's metafile names them so too).
import path from 'node:path';

export const repoPath = (file) => path.relative(process.cwd(), file).split(path.sep).join('/');
