import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whose work the code running now does: set once where a request's per-rider slot is taken (the
 * heavy-reads plugin), read where costly work waits its turn (the import workers), so every task
 * an import makes (read, reads again, analyses) queues as its rider's without each call passing
 * the rider along. Decision 035.
 */
const whose = new AsyncLocalStorage<string>();

/** Runs `fn` as the work of `owner`. */
export function asWorkOf<T>(owner: string, fn: () => T): T {
  return whose.run(owner, fn);
}

/** Whose work this is ('' when nobody's in particular: the CLI, a background job). */
export function workOwner(): string {
  return whose.getStore() ?? '';
}

interface Waiting {
  start: () => void;
  refuse: (err: Error) => void;
}

/** An owner's tasks: those waiting their turn, those running, and when it was last served. */
interface Owner {
  waiting: Waiting[];
  running: number;
  servedAt: number;
}

/**
 * At most `concurrency` tasks at once, shared fairly: each owner's tasks wait in a line of their
 * own and a free place goes to the owner served least recently (round robin; an owner new to the
 * lines first), so one owner's many tasks never stand before everyone else's. A task's own clock
 * (its time budget) is the caller's to start inside `task`, once its turn has come.
 */
export function createFairTurns(concurrency: number) {
  /** Owners with a task waiting or running (a handful: a scan is cheaper than keeping them sorted). */
  const owners = new Map<string, Owner>();
  let running = 0;
  let served = 0;
  let closed: Error | undefined;

  function next(): void {
    while (running < concurrency) {
      let pick: Owner | undefined;
      for (const o of owners.values()) if (o.waiting.length > 0 && (!pick || o.servedAt < pick.servedAt)) pick = o;
      if (!pick) return;
      pick.servedAt = ++served;
      pick.running++;
      running++;
      pick.waiting.shift()!.start();
    }
  }

  return {
    /** Runs `task` when its turn comes, as `owner`'s. */
    async run<T>(owner: string, task: () => Promise<T>): Promise<T> {
      if (closed) throw closed;
      let o = owners.get(owner);
      if (!o) owners.set(owner, (o = { waiting: [], running: 0, servedAt: 0 }));
      const mine = o;
      await new Promise<void>((start, refuse) => {
        mine.waiting.push({ start, refuse });
        next();
      });
      try {
        return await task();
      } finally {
        running--;
        if (--mine.running === 0 && mine.waiting.length === 0) owners.delete(owner);
        next();
      }
    },
    /** Tasks waiting for their turn, per owner (for tests and metrics). */
    waiting(): Map<string, number> {
      return new Map([...owners].filter(([, o]) => o.waiting.length > 0).map(([k, o]) => [k, o.waiting.length]));
    },
    /** Refuses every task still waiting, and any later one (the server is closing). */
    close(why: Error): void {
      closed = why;
      for (const o of owners.values()) for (const w of o.waiting.splice(0)) w.refuse(why);
    },
  };
}
export type FairTurns = ReturnType<typeof createFairTurns>;
