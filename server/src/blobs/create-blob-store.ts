import path from 'node:path';
import type { AppConfig } from '../config';
import type { BlobStore } from './blob-store';
import { LocalBlobStore } from './local-blob-store';
import { S3BlobStore } from './s3-blob-store';

/** The one place the blob store is chosen from config. */
export function createBlobStore(config: AppConfig): BlobStore {
  if (config.s3) return new S3BlobStore({ ...config.s3, spoolDir: path.join(config.dataDir, 'spool') });
  return new LocalBlobStore(path.join(config.dataDir, 'blobs'));
}
