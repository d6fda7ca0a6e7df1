#!/usr/bin/env node
// The `voltas` command: runs the TypeScript sources through tsx (no separate server build).
import { refuseOldRuntime } from './runtime.mjs';

refuseOldRuntime('voltas');
const { register } = await import('tsx/esm/api');
// Everything the server and the CLI write (database, blobs, backups, the secret key) is the
// owner's alone.
process.umask(0o077);
register();
const { run } = await import('#server/cli/voltas.ts');
process.exitCode = await run(process.argv.slice(2));
