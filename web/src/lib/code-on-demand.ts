import { startTransition, useEffect, useState, type ComponentType } from 'react';

/**
 * A component whose code is downloaded on first use, without React.lazy: a Suspense boundary
 * that has shown its fallback reveals its content no sooner than 300 ms after (React 19's
 * fallback throttle, global to the root: any one fallback holds back every later reveal).
 * `start` begins the download (once; idempotent); `useCode` renders with it: the component once
 * it is there, or that the download failed. A download that only `useCode` asks for begins when
 * the browser is idle: its `import()` and the module preloads it adds are then a task of their
 * own, not part of the first screen's (what a page needs at once, its route starts with `start`).
 */
export function codeOnDemand<P extends object = object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  // Settles when the code has arrived (or failed), whoever started the download.
  let arrived!: (component: ComponentType<P>) => void;
  let failed!: (err: unknown) => void;
  const arrival = new Promise<ComponentType<P>>((resolve, reject) => {
    arrived = resolve;
    failed = reject;
  });
  arrival.catch(() => {}); // each useCode shows a failure; none is left unhandled
  const start = () =>
    (loading ??= load().then(
      (component) => {
        arrived((loaded = component));
        return component;
      },
      (err: unknown) => {
        failed(err);
        throw err;
      },
    ));
  /** `wanted` false: not started from here (yet). */
  function useCode(wanted = true): { Component: ComponentType<P> | undefined; failed: boolean } {
    const [state, setState] = useState<'waiting' | 'arrived' | 'failed'>(loaded ? 'arrived' : 'waiting');
    useEffect(() => {
      if (state !== 'waiting' || !wanted) return;
      let live = true;
      // Also when the code came between this render and now: rendered again with it.
      arrival.then(
        // Rendered as a transition: a page's first render comes in slices, not one long task.
        () => live && startTransition(() => setState('arrived')),
        () => live && setState('failed'),
      );
      const cancel = whenIdle(() => void start().catch(() => {}));
      return () => {
        live = false;
        cancel();
      };
    }, [wanted, state]);
    return { Component: loaded, failed: state === 'failed' };
  }
  return { start, useCode };
}

/** Runs `run` when the browser is next idle (within 2 s); returns its cancel. Safari has no requestIdleCallback. */
function whenIdle(run: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: 2_000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(run, 0);
  return () => clearTimeout(id);
}
