// Baselines for the API and upload benchmarks: a bare Fastify hello-world, and a bare PUT that
// only writes the body to disk (temp file + fsync, like the product's blob store).
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';

const port = Number(process.argv[2]);
const app = Fastify({ logger: false, bodyLimit: 128 * 1024 * 1024 });
app.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
app.get('/', async () => ({ hello: 'world' }));
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'voltas-raw-'));
let n = 0;
app.put('/raw', async (req) => {
  const file = path.join(dir, `body-${n++}`);
  const handle = await fs.open(file, 'w');
  await handle.writeFile(req.body);
  await handle.sync();
  await handle.close();
  return { ok: true };
});
await app.listen({ port, host: '127.0.0.1' });
process.stdout.write('ready\n');
const stop = async () => {
  await app.close();
  await fs.rm(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
