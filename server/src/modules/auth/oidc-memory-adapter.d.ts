// oidc-provider's own in-memory adapter (no types of its own): used by the local provider with a
// store of ours, see local-idp.ts.
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
