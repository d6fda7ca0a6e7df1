/** A throwaway PostgreSQL server (scripts/postgres.mjs). */
export interface TestPostgres {
  url: string;
  dir: string;
  stop(): void;
  pause(): void;
  resume(): void;
}
export function ensurePostgres(): string;
export function startPostgres(): Promise<TestPostgres>;
/** A TCP port nothing listens on now. */
export function freePort(): Promise<number>;
