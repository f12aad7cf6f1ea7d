// A character named as Unicode writes it, for text that cannot show the character itself: an
// option's control character refused, a server's shown visible. Its own file: the prepared help
// (dist/start.cjs) loads src/output/sanitize.ts for alias lines, and no more than it needs.

/** `U+001B` for ESC. */
export const codePointName = (code: number): string => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
