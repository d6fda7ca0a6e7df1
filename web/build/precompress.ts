/**
 * Build step: every text asset of the built app gets a Brotli (`.br`) and a gzip (`.gz`) copy
 * beside it, compressed once at the strongest settings; the server (`web-static.ts`,
 * `preCompressed`) sends the one the browser takes and the file itself to anyone else. A rider
 * on mobile data at the track downloads ~1/3 of the bytes, and the server compresses nothing per
 * request.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text the browser loads; images and fonts are already compressed. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt)$/i;
/** Below this the headers outweigh the saving. */
const MIN_BYTES = 1024;

/** Every file below `dir`, by its full path. */
export async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

/** Writes `.br` and `.gz` beside each compressible file of `dir`. */
export async function precompressDir(dir: string): Promise<void> {
  const work: Promise<void>[] = [];
  for await (const file of files(dir)) {
    if (!COMPRESSIBLE.test(file) || (await stat(file)).size < MIN_BYTES) continue;
    work.push(
      (async () => {
        const body = await readFile(file);
        const [br, gzipped] = await Promise.all([
          brotli(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            },
          }),
          gz(body, { level: 9 }),
        ]);
        await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)]);
      })(),
    );
  }
  await Promise.all(work);
}

/** The Vite plugin: runs precompressDir on the output directory after each build. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'voltas-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}
