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

/** An owner's tasks: those waiting their turn, how many run, the time its tasks have run, when it was last served. */
interface Owner {
  waiting: Waiting[];
  running: number;
  usedMs: number;
  servedAt: number;
}

/**
 * At most `concurrency` tasks at once, shared fairly: each owner's tasks wait in a line of their
 * own, and a free place goes to the owner whose tasks have run the least time (on a tie, the one
 * served least recently). An owner of long tasks thus gets fewer turns than one of short ones: a
 * rider's half-second import waits for one of a flooder's 12 s files, not one per task. An owner
 * arriving starts level with the least-served owner present, neither owed time nor owing it. A
 * task's own clock (its time budget) is the caller's to start inside `task`, once its turn has come.
 */
export function createFairTurns(concurrency: number) {
  /** Owners with a task waiting or running (a handful: a scan is cheaper than keeping them sorted). */
  const owners = new Map<string, Owner>();
  let running = 0;
  let served = 0;
  let closed: Error | undefined;

  const ahead = (a: Owner, b: Owner) => a.usedMs < b.usedMs || (a.usedMs === b.usedMs && a.servedAt < b.servedAt);

  function next(): void {
    while (running < concurrency) {
      let pick: Owner | undefined;
      for (const o of owners.values()) if (o.waiting.length > 0 && (!pick || ahead(o, pick))) pick = o;
      if (!pick) return;
      pick.servedAt = ++served;
      pick.running++;
      running++;
      pick.waiting.shift()!.start();
    }
  }

  function ownerOf(key: string): Owner {
    let o = owners.get(key);
    if (!o) {
      const level = Math.min(...[...owners.values()].map((other) => other.usedMs));
      o = { waiting: [], running: 0, usedMs: Number.isFinite(level) ? level : 0, servedAt: 0 };
      owners.set(key, o);
    }
    return o;
  }

  return {
    /** Runs `task` when its turn comes, as `owner`'s. */
    async run<T>(owner: string, task: () => Promise<T>): Promise<T> {
      if (closed) throw closed;
      const mine = ownerOf(owner);
      await new Promise<void>((start, refuse) => {
        mine.waiting.push({ start, refuse });
        next();
      });
      const started = performance.now();
      try {
        return await task();
      } finally {
        mine.usedMs += performance.now() - started;
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
