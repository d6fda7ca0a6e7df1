import path from 'node:path';
import type { AppConfig } from '../config';
import type { BlobStore } from './blob-store';
import { LocalBlobStore } from './local-blob-store';

/** The one place the blob store is chosen from config. */
export function createBlobStore(config: AppConfig): BlobStore {
  if (config.s3) {
    throw new Error('S3_BUCKET is set, but the S3 blob store arrives with the scale-out work; unset S3_BUCKET to use the filesystem.');
  }
  return new LocalBlobStore(path.join(config.dataDir, 'blobs'));
}
