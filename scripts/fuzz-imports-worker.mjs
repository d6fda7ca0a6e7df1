// The import fuzz targets' worker (see fuzz-imports.ts): TypeScript through tsx, as the server's import workers.
import { register } from 'tsx/esm/api';

register();
const { serveFuzzImports } = await import('./fuzz-imports.ts');
serveFuzzImports();
