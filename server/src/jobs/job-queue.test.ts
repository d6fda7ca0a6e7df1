import { describe, expect, it } from 'vitest';
import { createInProcessQueue, RETRY_DELAY_MS, type Timer } from './job-queue';

/** A timer the test fires by hand: it records each wait asked for and runs nothing by itself. */
function manualTimer() {
  const pending: { ms: number; fire: () => void }[] = [];
  const timer: Timer = (ms, fire) => void pending.push({ ms, fire });
  return {
    timer,
    waits: () => pending.map((p) => p.ms),
    fireAll() {
      for (const p of pending.splice(0)) p.fire();
    },
  };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** Lets the queue's promise chains settle (no clock involved). */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('the in-process job queue', () => {
  it('runs a failing job again with a doubling wait, then gives up after its retries', async () => {
    const clock = manualTimer();
    const queue = createInProcessQueue({ timer: clock.timer });
    const attempts: string[] = [];
    await queue.work<{ n: string }>(
      'flaky',
      async ({ n }) => {
        attempts.push(n);
        if (n === 'never' || attempts.length < 3) throw new Error('not yet');
      },
      { retries: 2 },
    );
    await queue.send('flaky', { n: 'soon' });
    await settle();
    expect(attempts).toEqual(['soon']);
    expect(clock.waits()).toEqual([RETRY_DELAY_MS]);
    clock.fireAll();
    await settle();
    expect(clock.waits()).toEqual([2 * RETRY_DELAY_MS]);
    clock.fireAll();
    await settle();
    // The third run succeeded: nothing waits, nothing failed.
    expect(attempts).toEqual(['soon', 'soon', 'soon']);
    expect(clock.waits()).toEqual([]);
    expect(await queue.counts()).toEqual([{ name: 'flaky', queued: 0, active: 0, failed: 0 }]);

    await queue.send('flaky', { n: 'never' });
    for (let i = 0; i < 3; i++) {
      await settle();
      clock.fireAll();
    }
    await settle();
    expect(attempts.filter((n) => n === 'never')).toHaveLength(3);
    expect(await queue.counts()).toEqual([{ name: 'flaky', queued: 0, active: 0, failed: 1 }]);
  });

  it('merges a job into one of the same name and key still waiting, and takes the key again once it ran', async () => {
    const clock = manualTimer();
    const queue = createInProcessQueue({ timer: clock.timer });
    const ran: string[] = [];
    await queue.work<{ v: string }>('analyse', async ({ v }) => void ran.push(v));
    expect(await queue.send('analyse', { v: 'lap.six' }, { singletonKey: 's1', delayMs: 2000 })).toBe(true);
    expect(await queue.send('analyse', { v: 'gps.six' }, { singletonKey: 's1', delayMs: 2000 })).toBe(false);
    expect(await queue.send('analyse', { v: 'other' }, { singletonKey: 's2', delayMs: 2000 })).toBe(true);
    expect(clock.waits()).toEqual([2000, 2000]);
    expect(ran).toEqual([]);
    clock.fireAll();
    await settle();
    expect(ran).toEqual(['lap.six', 'other']);
    expect(await queue.send('analyse', { v: 'again' }, { singletonKey: 's1' })).toBe(true);
    await settle();
    expect(ran).toEqual(['lap.six', 'other', 'again']);
  });

  it('runs one job of a name at a time, and jobs of other names meanwhile', async () => {
    const queue = createInProcessQueue();
    const gates = [deferred(), deferred(), deferred()];
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await queue.work<{ k: number }>('one', async ({ k }) => {
      started.push(k);
      most = Math.max(most, ++running);
      await gates[k]!.promise;
      running--;
    });
    const other = deferred();
    await queue.work('two', async () => other.resolve());
    for (const k of [0, 1, 2]) await queue.send('one', { k }, { singletonKey: String(k) });
    await queue.send('two', {});
    await other.promise;
    await settle();
    expect(started).toEqual([0]);
    gates[0]!.resolve();
    await settle();
    expect(started).toEqual([0, 1]);
    gates[1]!.resolve();
    gates[2]!.resolve();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    expect(most).toBe(1);
  });

  it('keeps one offer of a scheduled job per period', async () => {
    let now = 60_000 * 10 + 5;
    const queue = createInProcessQueue({ timer: manualTimer().timer, now: () => now });
    let runs = 0;
    await queue.work('sweep', async () => void runs++);
    await queue.schedule('sweep', 60_000);
    expect(await queue.offerScheduled('sweep')).toBe(true);
    expect(await queue.offerScheduled('sweep')).toBe(false);
    now += 60_000;
    expect(await queue.offerScheduled('sweep')).toBe(true);
    await settle();
    expect(runs).toBe(2);
    await queue.stop();
  });

  it('stops: waits for the job running, runs none of those waiting', async () => {
    const queue = createInProcessQueue();
    const gate = deferred();
    const ran: number[] = [];
    await queue.work<{ k: number }>('slow', async ({ k }) => {
      ran.push(k);
      if (k === 0) await gate.promise;
    });
    await queue.send('slow', { k: 0 }, { singletonKey: 'a' });
    await queue.send('slow', { k: 1 }, { singletonKey: 'b' });
    let stopped = false;
    const stopping = queue.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    expect(ran).toEqual([0]);
  });
});
