import { describe, expect, it } from 'vitest';
import { asWorkOf, createFairTurns, workOwner } from './fair-turns';

/** A task that runs until `finish` is called: what ran, in order, is written to `log`. */
function gated(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    task: async () => {
      log.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

describe('fair turns', () => {
  it("one owner's long line does not stand before another's single task", async () => {
    const turns = createFairTurns(1);
    const log: string[] = [];
    const hostile = Array.from({ length: 8 }, (_, k) => gated(log, `h${k}`));
    const rider = gated(log, 'r0');
    const runs = hostile.map((h) => turns.run('hostile', h.task));
    const riderRun = turns.run('rider', rider.task);
    await Promise.resolve();
    expect(log).toEqual(['h0']);
    expect(turns.waiting()).toEqual(
      new Map([
        ['hostile', 7],
        ['rider', 1],
      ]),
    );
    hostile[0]!.finish();
    await runs[0];
    await new Promise((r) => setImmediate(r));
    expect(log).toEqual(['h0', 'r0']); // the rider's turn, not the hostile's next seven
    rider.finish();
    expect(await riderRun).toBe('r0');
    for (const h of hostile) h.finish();
    expect(await Promise.all(runs)).toEqual(hostile.map((_, k) => `h${k}`));
    expect(log).toEqual(['h0', 'r0', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7']);
  });

  it('shares time, not turns: an owner of short tasks runs them all before a long-task owner runs its next', async () => {
    const turns = createFairTurns(1);
    const log: string[] = [];
    const taking = (name: string, ms: number) => async () => {
      log.push(name);
      await new Promise((r) => setTimeout(r, ms));
    };
    const long = [0, 1, 2].map((k) => turns.run('long', taking(`L${k}`, 300)));
    await Promise.resolve(); // L0 runs
    const short = [0, 1, 2].map((k) => turns.run('short', taking(`S${k}`, 1)));
    await Promise.all([...long, ...short]);
    // L0's long task outweighs S0-S2's short ones: the short owner is served three times before L1.
    expect(log).toEqual(['L0', 'S0', 'S1', 'S2', 'L1', 'L2']);
  });

  it('runs at most `concurrency` at once, and a failed task frees its place', async () => {
    const turns = createFairTurns(2);
    let now = 0;
    let most = 0;
    const task = (fail: boolean) => async () => {
      most = Math.max(most, ++now);
      await new Promise((r) => setImmediate(r));
      now--;
      if (fail) throw new Error('failed');
      return 'ok';
    };
    const results = await Promise.allSettled(
      Array.from({ length: 9 }, (_, k) => turns.run(`o${k % 3}`, task(k % 4 === 0))),
    );
    expect(most).toBe(2);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(3);
    expect(turns.waiting().size).toBe(0);
  });

  it('closing refuses what still waits', async () => {
    const turns = createFairTurns(1);
    const log: string[] = [];
    const first = gated(log, 'a');
    const running = turns.run('a', first.task);
    const waiting = turns.run('b', async () => 'b');
    turns.close(new Error('closing'));
    await expect(waiting).rejects.toThrow('closing');
    await expect(turns.run('c', async () => 'c')).rejects.toThrow('closing');
    first.finish();
    expect(await running).toBe('a');
  });

  it('knows whose work runs, across awaits', async () => {
    expect(workOwner()).toBe('');
    const seen = await asWorkOf('user:ana@example.com', async () => {
      await new Promise((r) => setImmediate(r));
      return workOwner();
    });
    expect(seen).toBe('user:ana@example.com');
  });
});
