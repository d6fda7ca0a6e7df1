import { startTransition, useEffect, useState, type ComponentType } from 'react';

/**
 * A component whose code is downloaded on first use, without React.lazy: a Suspense boundary
 * that has shown its fallback reveals its content no sooner than 300 ms after (React 19's
 * fallback throttle, global to the root: any one fallback holds back every later reveal).
 * `start` begins the download (once; idempotent); `useCode` renders with it: the component once
 * it is there, or that the download failed.
 */
export function codeOnDemand<P extends object = object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const start = () => (loading ??= load().then((component) => (loaded = component)));
  /** `wanted` false: not started from here (yet). */
  function useCode(wanted = true): { Component: ComponentType<P> | undefined; failed: boolean } {
    const [state, setState] = useState<'waiting' | 'arrived' | 'failed'>('waiting');
    useEffect(() => {
      if (loaded || !wanted) return;
      let live = true;
      start().then(
        // Rendered as a transition: a page's first render comes in slices, not one long task.
        () => live && startTransition(() => setState('arrived')),
        () => live && setState('failed'),
      );
      return () => {
        live = false;
      };
    }, [wanted]);
    return { Component: loaded, failed: state === 'failed' };
  }
  return { start, useCode };
}
