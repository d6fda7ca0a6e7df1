import { useEffect, useState, type RefObject } from 'react';

/**
 * True once the element has come within `margin` of the viewport (a share of its height; from
 * then on): a chart far down a phone's page is drawn as the rider scrolls towards it, not while
 * the page arrives.
 */
export function useNearViewport(ref: RefObject<Element | null>, margin = '100%'): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (near || !el) return;
    if (typeof IntersectionObserver === 'undefined') return setNear(true);
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), {
      rootMargin: `${margin} 0px`,
    });
    io.observe(el);
    return () => io.disconnect();
  }, [ref, near, margin]);
  return near;
}
