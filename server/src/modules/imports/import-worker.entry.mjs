// The entry of an import worker thread (a Piscina pool's): the reader code is TypeScript, run
// through tsx as the server is (bin/voltas.mjs); a worker starts with no loader of its own, under
// tsx or Vitest alike.
import { register } from 'tsx/esm/api';

register();
const { importTask } = await import('./import-worker.ts');
export default importTask;
