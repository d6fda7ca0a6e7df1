// A blob store wrapped so each operation is timed for the metrics and each failure is a BlobStoreError.
import { BlobStoreError, type BlobStore } from './blob-store';

export interface BlobMeasurements {
  observe(operation: string, outcome: 'ok' | 'error', seconds: number): void;
}

const MEASURED = ['put', 'putFile', 'get', 'getStream', 'head', 'delete', 'list', 'ping'] as const;

/**
 * The same store, each operation timed and its failures counted (the metrics), and each failure
 * thrown as a BlobStoreError, so the error mapping can tell the store's faults from others.
 */
export function measuredBlobStore(store: BlobStore, measure: BlobMeasurements): BlobStore {
  const measured = Object.create(store) as BlobStore;
  for (const operation of MEASURED) {
    const original = store[operation].bind(store) as (...args: unknown[]) => Promise<unknown>;
    Object.defineProperty(measured, operation, {
      value: async (...args: unknown[]) => {
        const started = performance.now();
        try {
          const result = await original(...args);
          measure.observe(operation, 'ok', (performance.now() - started) / 1000);
          return result;
        } catch (err) {
          measure.observe(operation, 'error', (performance.now() - started) / 1000);
          throw err instanceof BlobStoreError ? err : new BlobStoreError(operation, err);
        }
      },
    });
  }
  return measured;
}
