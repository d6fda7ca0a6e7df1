import { useSyncExternalStore } from 'react';
import { deleteKeptAnswers, STORED_AT_HEADER } from './offline-contract';

/** When the data on screen was kept, if the last answer came from the offline copy; null when fresh. */
let storedAt: Date | null = null;
const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};

/** Every answer the page reads goes through here: a kept copy turns the banner on, a fresh one off. */
export function noteAnswer(res: Response): void {
  noteStoredAt(res.headers.get(STORED_AT_HEADER));
}

/** As noteAnswer, from the stamp itself (an answer read in a worker). */
export function noteStoredAt(stamp: string | null): void {
  const next = stamp ? new Date(stamp) : null;
  if (next?.getTime() === storedAt?.getTime()) return;
  // The oldest kept answer on screen is what the banner names.
  storedAt = next && storedAt && storedAt < next ? storedAt : next;
  notify();
}

const subscribe = (onChange: () => void) => {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
};

export function useStoredAt(): Date | null {
  return useSyncExternalStore(
    subscribe,
    () => storedAt,
    () => null,
  );
}

/** At sign-out (and sign-in): nothing of a rider's stays readable offline on this device. */
export async function forgetKeptAnswers(): Promise<void> {
  storedAt = null;
  notify();
  await deleteKeptAnswers();
}

/** Whether the browser says it has a network (a hint: a weak signal says yes). */
export function useOnline(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      window.addEventListener('online', onChange);
      window.addEventListener('offline', onChange);
      return () => {
        window.removeEventListener('online', onChange);
        window.removeEventListener('offline', onChange);
      };
    },
    () => navigator.onLine,
    () => true,
  );
}

// A new version of the app, waiting: the page offers it (lib/offline's banner), never forces it.
let update: (() => Promise<void>) | null = null;
export function offerUpdate(apply: () => Promise<void>): void {
  update = apply;
  notify();
}
export function useUpdate(): (() => Promise<void>) | null {
  return useSyncExternalStore(
    subscribe,
    () => update,
    () => null,
  );
}
