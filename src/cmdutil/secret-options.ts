// Options whose value no error or hint shows, not even a byte of it. A module of its own: the
// usage errors' hints (commander's, the full CLI's) and the check of the arguments' bytes (loaded
// only when an argument holds U+FFFD) share it, and no command's first file needs it.

/** A password typed on the command line: login refuses it, saying why (login's hidden --password). */
export const SECRET = /^--password\b/;
