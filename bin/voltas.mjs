#!/usr/bin/env node
// The `voltas` command: runs the TypeScript sources through tsx (no separate server build).
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../server/src/cli/voltas.ts');
process.exitCode = await run(process.argv.slice(2));
