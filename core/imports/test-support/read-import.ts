import { ImportReader, type ReadImport } from '../importer';

/** Reads a whole file from its bytes as they arrive (see ImportReader). */
export async function readImport(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  filename: string,
): Promise<ReadImport> {
  const reader = new ImportReader(filename);
  for await (const chunk of chunks) reader.push(chunk);
  return reader.finish();
}
