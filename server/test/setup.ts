import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { addMessages } from '#core/i18n/intl.ts';
import { en } from '#core/i18n/messages/en.ts';
import { es } from '#core/i18n/messages/es.ts';
import { ptBR } from '#core/i18n/messages/pt-BR.ts';
import { runCleanups } from './cleanups';

// Every language's every word, as the server has them (the web downloads its pages' words with their
// code: that loading is the end-to-end tests' to show).
addMessages('pt-BR', ptBR);
addMessages('en', en);
addMessages('es', es);

// Each test file's temporary files (data dirs, uploads, what the CLI's children write) go in a
// directory of its own, removed when the file ends: a run leaves nothing in the machine's temp dir.
// The machine's own is remembered once per worker, so that each file's is made beside it.
process.env.VOLTAS_MACHINE_TMPDIR ??= os.tmpdir();
const fileTmp = mkdtempSync(path.join(process.env.VOLTAS_MACHINE_TMPDIR, 'voltas-file-'));
process.env.TMPDIR = fileTmp;

// Whatever a test file started for itself (an S3 server) stops with the file, so no worker is
// kept alive. Kept import-light: every test file loads this.
afterAll(async () => {
  await runCleanups();
  rmSync(fileTmp, { recursive: true, force: true });
});
