import { promises as fs } from 'node:fs';
import path from 'node:path';

/** What the app needs from an object store. Filesystem by default, S3-compatible for scale-out. */
export interface BlobMetadata {
  key: string;
  size: number;
  /** base64 MD5 of the bytes, as S3 and the spec's metadata report it. */
  md5Hash: string;
  contentType: string;
  timeCreated: string;
  updated: string;
  /** Bumps on each overwrite. */
  generation: string;
}

/** Bytes `start` to `end`, both included (as HTTP's Range counts them). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BlobListPage {
  prefixes: string[];
  items: string[];
  nextPageToken: string | undefined;
}

export interface PutOptions {
  /** false: skip fsync (derived data that is rebuilt when missing or unreadable). Default true. */
  durable?: boolean;
  /** base64 MD5 of the body when the caller already computed it. */
  md5?: string;
}

export interface BlobStore {
  readonly description: string;
  put(key: string, body: Buffer, contentType: string, options?: PutOptions): Promise<BlobMetadata>;
  /**
   * Stores the bytes of a local file the caller wrote under `tempPath()`, and takes the file over
   * (moved or uploaded, then gone): large uploads go in and out without being held in memory.
   * `options.md5` is required: the caller computed it while writing.
   */
  putFile(key: string, file: string, contentType: string, options: PutOptions & { md5: string }): Promise<BlobMetadata>;
  /** A fresh path for such a file, on the disk where putFile is cheapest (a rename for the filesystem store). */
  tempPath(): Promise<string>;
  get(key: string): Promise<Buffer | undefined>;
  /**
   * The bytes as a stream, without reading them all first; with `range` (inclusive, within the
   * object) only those bytes, and `size` is theirs.
   */
  getStream(
    key: string,
    range?: ByteRange,
  ): Promise<{ body: NodeJS.ReadableStream & AsyncIterable<Uint8Array>; size: number } | undefined>;
  head(key: string): Promise<BlobMetadata | undefined>;
  delete(key: string): Promise<void>;
  /** Lists one level below `prefix` (delimiter '/'), keys in lexical order. */
  list(prefix: string, opts: { maxResults: number; pageToken?: string | undefined }): Promise<BlobListPage>;
  /** Cheap reachability probe for /api/health. */
  ping(): Promise<void>;
  /**
   * Removes this instance's temp files a crash left behind (tempPath()'s folder). Called at
   * start-up, before serving. Returns how many were removed.
   */
  sweepTemp(): Promise<number>;
}

/** Keys are relative paths of safe segments; anything else is a programming error. */
export function assertSafeKey(key: string): void {
  const segments = key.split('/');
  const control = /[\u0000-\u001f\u007f\\]/; // eslint-disable-line no-control-regex -- control characters are what is refused
  if (
    key.length === 0 ||
    key.length > 1024 ||
    segments.some((s) => s === '' || s === '.' || s === '..' || control.test(s))
  ) {
    throw new Error(`Unsafe blob key: ${JSON.stringify(key)}`);
  }
}

/** One listing page from entries in lexical key order; `more`: entries follow this page. */
export function listPage(entries: { key: string; dir: boolean }[], more: boolean): BlobListPage {
  return {
    prefixes: entries.filter((e) => e.dir).map((e) => e.key),
    items: entries.filter((e) => !e.dir).map((e) => e.key),
    nextPageToken: more ? entries.at(-1)?.key : undefined,
  };
}

export const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Empties a folder of this instance's temp files; a missing folder holds none. Returns how many were removed. */
export async function emptyFolder(dir: string): Promise<number> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return 0;
  }
  await Promise.all(names.map((n) => fs.rm(path.join(dir, n), { force: true, recursive: true })));
  return names.length;
}

/**
 * A blob store operation that failed, as the rest of the app sees it: which operation, and the
 * store's own error as `cause` (its errno code, ENOSPC among them, kept as `code`).
 */
export class BlobStoreError extends Error {
  readonly code: string | undefined;
  constructor(
    readonly operation: string,
    cause: unknown,
  ) {
    super(`blob store ${operation} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'BlobStoreError';
    const code = (cause as { code?: unknown } | null)?.code;
    this.code = typeof code === 'string' ? code : undefined;
  }
}
