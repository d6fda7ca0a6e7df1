// Parts of oidc-provider used by the local provider (see local-idp.ts) that ship no types:
// its in-memory adapter, given a store of ours.
declare module 'oidc-provider/lib/adapters/memory_adapter.js' {
  import type { Adapter } from 'oidc-provider';

  export interface MemoryStore {
    get(key: string): unknown;
    set(key: string, value: unknown, options?: { maxAge?: number }): void;
    delete(key: string): void;
  }
  const MemoryAdapter: new (model: string, store?: MemoryStore, clockTolerance?: number) => Adapter;
  export default MemoryAdapter;
}
