// `voltas import`: a rider's files from other loggers brought in from the command line, through the
// same import as the web page; one line per file, in Portuguese.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { AppError } from '#core/errors.ts';
import { formatLapTime } from '#core/formats/lap-six.ts';
import { say } from '#core/i18n/import-warnings.ts';
import { translate } from '#server/lib/i18n.ts';
import type { Services } from '../services';

const IMPORT_USAGE = 'Usage: voltas import <file…> --owner <email> [--track NAME]\n';

/**
 * `voltas import <file…> --owner <email> [--track NAME]`: a rider's archive moved over, file by
 * file, through the same import as the web page (one line per file; the exit code is 1 if any
 * was refused). A file's path is its name for the import: a gps.six's day may be in its folder.
 */
export async function importSessionsCommand(
  args: string[],
  withServices: <T>(work: (services: Services) => Promise<T>) => Promise<T>,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { owner: { type: 'string' }, track: { type: 'string' } },
  });
  const owner = values.owner?.trim().toLowerCase();
  if (!owner || positionals.length === 0) {
    process.stderr.write(IMPORT_USAGE);
    return 2;
  }
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(owner)) {
    process.stderr.write(`Invalid e-mail "${owner}"\n`);
    return 2;
  }
  return withServices(async ({ imports, receiver }) => {
    let failed = 0;
    for (const path of positionals) {
      try {
        const info = await stat(path);
        if (!info.isFile()) throw new Error('not a file');
        const { created, answer } = await imports.importFile(owner, path, createReadStream(path), {
          ...(values.track ? { trackName: values.track } : {}),
          expectedBytes: info.size,
        });
        const s = answer.session;
        const best = answer.bestLapSeconds === null ? '' : `, melhor ${formatLapTime(answer.bestLapSeconds * 1000)}`;
        process.stdout.write(
          `${created ? 'importado' : 'já importado'}  ${path}: ${s.track} ${s.date.slice(0, 2)}/${s.date.slice(2, 4)}/${s.date.slice(4)} (${answer.format}), ${answer.laps.length} voltas${best}  → /api/devices/${s.device}/sessions/${encodeURIComponent(s.track)}/${s.date}\n`,
        );
        for (const w of answer.warnings) process.stdout.write(`    aviso: ${w.message}\n`);
      } catch (err) {
        failed++;
        const message =
          err instanceof AppError
            ? err.mensagem
              ? err.mensagem.map((ref) => say(translate('pt-BR'), ref)).join(' ')
              : translate('pt-BR')(`errors.${err.code}`)
            : `não foi possível ler o arquivo (${(err as Error).message})`;
        process.stdout.write(`recusado  ${path}: ${message}\n`);
      }
    }
    await receiver.drain();
    process.stdout.write(
      `${positionals.length - failed} de ${positionals.length} arquivos importados para ${owner}.\n`,
    );
    return failed ? 1 : 0;
  });
}
