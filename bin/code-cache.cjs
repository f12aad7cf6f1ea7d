'use strict';
// npm's postinstall: V8's code of the commands' bundles, compiled under the Node that installs,
// for the runs that keep no cache of their own, such as a CI job that never logged in (README,
// Performance; src/install-cache.ts). A cache only saves time: whatever fails here
// (no dist/ in a clone before its build, a folder that cannot be written) fails quietly, and the
// install goes on.
try {
  require('../dist/install-cache.cjs').writeInstallCache();
} catch {
  // Runs compile as they would without the cache.
}
