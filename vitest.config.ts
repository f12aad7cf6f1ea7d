import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: { TKT_VERSION: JSON.stringify('0.0.0-test') },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Vitest's default, one worker fewer than the cores, runs one file at a time on CI's two cores;
    // most files spend much of their time waiting on a sandbox, a child tkt or a terminal.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
