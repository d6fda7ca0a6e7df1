// The entry of an import's worker thread: the reader code is TypeScript, run through tsx as the
// server is (bin/voltas.mjs); a worker starts with no loader of its own, under tsx or Vitest alike.
import { register } from 'tsx/esm/api';

register();
const { runImportWorker } = await import('./import-worker.ts');
await runImportWorker();
