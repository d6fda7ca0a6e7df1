// The blob store when no S3 bucket is configured: session files on the local disk (DATA_DIR/blobs),
// each beside a small JSON file with what a file system does not keep (MD5, content type, generation).
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  assertSafeKey,
  byKey,
  emptyFolder,
  listPage,
  type BlobListPage,
  type BlobMetadata,
  type BlobStore,
  type ByteRange,
  type PutOptions,
} from './blob-store';

const TMP_DIR = '.tmp';

const newGeneration = () => String(Date.now() * 1000 + Math.floor(Math.random() * 1000));
const META_SUFFIX = '.meta.json';

/** The read's answer, or undefined when it failed with one of `missing` (the file is not there). */
async function unlessMissing<T>(read: Promise<T>, missing = ['ENOENT']): Promise<T | undefined> {
  try {
    return await read;
  } catch (err) {
    if (missing.includes((err as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw err;
  }
}

/** fsync of a file ('r+') or a folder ('r': the names in it). */
async function sync(target: string, flags: 'r' | 'r+'): Promise<void> {
  const handle = await fs.open(target, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

interface StoredMeta {
  contentType: string;
  md5Hash: string;
  timeCreated: string;
  generation: string;
  /** The data file this describes: a sidecar that does not match is stale and ignored. */
  size: number;
  mtimeMs: number;
}

/**
 * Files under `root`, written atomically: temp file + fsync + rename, then the directory is
 * fsynced, so a reader sees the old bytes or the new ones, never a part. Temp files live in a
 * hidden folder that listing never shows.
 */
export class LocalBlobStore implements BlobStore {
  readonly description: string;
  private readonly tmpDir: string;

  constructor(private readonly root: string) {
    this.description = `filesystem ${root}`;
    this.tmpDir = path.join(root, TMP_DIR);
  }

  private file(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  private async writeAtomic(target: string, data: Buffer | string, durable: boolean): Promise<void> {
    const tmp = await this.tempPath();
    await fs.mkdir(path.dirname(target), { recursive: true });
    const handle = await fs.open(tmp, 'w', 0o600);
    try {
      await handle.writeFile(data);
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await fs.rename(tmp, target);
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw err;
    }
    if (durable) await sync(path.dirname(target), 'r');
  }

  async put(key: string, body: Buffer, contentType: string, options: PutOptions = {}): Promise<BlobMetadata> {
    const target = this.file(key);
    const now = new Date().toISOString();
    const previous = await this.readMeta(key);
    await this.writeAtomic(target, body, options.durable ?? true);
    const md5 = options.md5 ?? createHash('md5').update(body).digest('base64');
    return this.described(key, contentType, md5, previous?.timeCreated ?? now, now);
  }

  /** Writes the sidecar of the data file just put at `key`; answers its metadata. */
  private async described(
    key: string,
    contentType: string,
    md5Hash: string,
    timeCreated: string,
    now: string,
  ): Promise<BlobMetadata> {
    const target = this.file(key);
    const stat = await fs.stat(target);
    const meta: StoredMeta = {
      contentType,
      md5Hash,
      timeCreated,
      generation: newGeneration(),
      size: stat.size,
      mtimeMs: stat.mtimeMs,
    };
    // The sidecar needs no fsync: after a crash a missing or stale one is recomputed from the data.
    await this.writeAtomic(target + META_SUFFIX, JSON.stringify(meta), false);
    return { key, size: stat.size, md5Hash, contentType, timeCreated, updated: now, generation: meta.generation };
  }

  async tempPath(): Promise<string> {
    await fs.mkdir(this.tmpDir, { recursive: true });
    return path.join(this.tmpDir, `${randomBytes(8).toString('hex')}.part`);
  }

  async putFile(
    key: string,
    file: string,
    contentType: string,
    options: PutOptions & { md5: string },
  ): Promise<BlobMetadata> {
    const target = this.file(key);
    const durable = options.durable ?? true;
    try {
      if (path.dirname(file) !== this.tmpDir) throw new Error(`putFile takes files from tempPath() only, not ${file}`);
      const now = new Date().toISOString();
      const previous = await this.readMeta(key);
      if (durable) await sync(file, 'r+');
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(file, target);
      if (durable) await sync(path.dirname(target), 'r');
      return await this.described(key, contentType, options.md5, previous?.timeCreated ?? now, now);
    } finally {
      await fs.rm(file, { force: true });
    }
  }

  async getStream(key: string, range?: ByteRange) {
    const handle = await unlessMissing(fs.open(this.file(key), 'r'));
    if (!handle) return undefined;
    const { size } = await handle.stat();
    // handle.createReadStream(): fs.createReadStream('', { fd: handle }) never ends an HTTP response it is piped to.
    if (range) return { body: handle.createReadStream(range), size: range.end - range.start + 1 };
    return { body: handle.createReadStream(), size };
  }

  get(key: string): Promise<Buffer | undefined> {
    return unlessMissing(fs.readFile(this.file(key)));
  }

  private async readMeta(key: string): Promise<StoredMeta | undefined> {
    try {
      return JSON.parse(await fs.readFile(this.file(key) + META_SUFFIX, 'utf8')) as StoredMeta;
    } catch {
      return undefined;
    }
  }

  async head(key: string): Promise<BlobMetadata | undefined> {
    const stat = await unlessMissing(fs.stat(this.file(key)));
    if (!stat) return undefined;
    let meta = await this.readMeta(key);
    if (meta && (meta.size !== stat.size || meta.mtimeMs !== stat.mtimeMs)) meta = undefined;
    if (!meta) {
      const body = await fs.readFile(this.file(key));
      meta = {
        contentType: 'application/octet-stream',
        md5Hash: createHash('md5').update(body).digest('base64'),
        timeCreated: stat.birthtime.toISOString(),
        generation: String(Math.floor(stat.mtimeMs * 1000)),
        size: stat.size,
        mtimeMs: stat.mtimeMs,
      };
    }
    return {
      key,
      size: stat.size,
      updated: stat.mtime.toISOString(),
      contentType: meta.contentType,
      md5Hash: meta.md5Hash,
      timeCreated: meta.timeCreated,
      generation: meta.generation,
    };
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
    await fs.rm(this.file(key) + META_SUFFIX, { force: true });
  }

  async list(prefix: string, opts: { maxResults: number; pageToken?: string | undefined }): Promise<BlobListPage> {
    const clean = prefix.replace(/\/+$/, '');
    const dir = clean ? this.file(clean) : this.root;
    const entries = (await unlessMissing(fs.readdir(dir, { withFileTypes: true }), ['ENOENT', 'ENOTDIR'])) ?? [];
    const base = clean ? `${clean}/` : '';
    const names = entries
      .filter((e) => !e.name.startsWith('.') && !e.name.endsWith(META_SUFFIX))
      .map((e) => ({ key: base + e.name + (e.isDirectory() ? '/' : ''), dir: e.isDirectory() }))
      .sort(byKey);
    const start = opts.pageToken ? names.findIndex((n) => n.key > opts.pageToken!) : 0;
    if (start < 0) return listPage([], false);
    return listPage(names.slice(start, start + opts.maxResults), start + opts.maxResults < names.length);
  }

  sweepTemp(): Promise<number> {
    return emptyFolder(this.tmpDir);
  }

  async ping(): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
    await fs.access(this.root);
  }
}
