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
  get(key: string): Promise<Buffer | undefined>;
  head(key: string): Promise<BlobMetadata | undefined>;
  delete(key: string): Promise<void>;
  /** Lists one level below `prefix` (delimiter '/'), keys in lexical order. */
  list(prefix: string, opts: { maxResults: number; pageToken?: string | undefined }): Promise<BlobListPage>;
  /** Cheap reachability probe for /api/health. */
  ping(): Promise<void>;
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
