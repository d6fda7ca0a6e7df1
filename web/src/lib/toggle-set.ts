import { useCallback, useState } from 'react';

/** Keys opened and closed one at a time (a table's rows whose details are one tap away). */
export function useToggleSet(): [ReadonlySet<string>, (key: string) => void] {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback(
    (key: string) =>
      setOpen((before) => {
        const next = new Set(before);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
    [],
  );
  return [open, toggle];
}
