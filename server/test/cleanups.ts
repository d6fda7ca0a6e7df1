/** Stops registered here run after each test file (server/test/setup.ts). */
const cleanups: (() => Promise<void>)[] = [];

export function onFileEnd(stop: () => Promise<void>): void {
  cleanups.push(stop);
}

export async function runCleanups(): Promise<void> {
  for (const stop of cleanups.splice(0).reverse()) await stop();
}
