import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: { TKT_VERSION: JSON.stringify('0.0.0-test') },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
  },
});
