// Replaced at build time by esbuild (scripts/build.mjs) and vitest (vitest.config.ts).
declare const TKT_VERSION: string;
