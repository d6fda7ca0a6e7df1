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

// Whatever a test file started for itself (an S3 server) stops with the file, so no worker is
// kept alive. Kept import-light: every test file loads this.
afterAll(async () => {
  await runCleanups();
});
