/**
 * What `zod` resolves to in the web build (see vite.config.ts): zod itself, with its JIT turned off
 * before any schema is built.
 *
 * Why: on the first object schema zod probes whether it may compile parsers with `new Function`.
 * The app's Content-Security-Policy (script-src 'self') rightly forbids it; zod catches the error
 * and interprets, but the browser still reports a CSP violation on every page load (DevTools'
 * Issues, any future report-uri, Lighthouse's best practices). Under `jitless` zod skips the probe
 * and runs the interpreter it ran anyway. As the module every `import … from 'zod'` goes through,
 * this runs before any importer's schemas, whatever order the bundle puts its chunks in.
 */
import { config } from 'zod/v4/core';

config({ jitless: true });

export * from 'zod/v4';
export { default } from 'zod/v4';
