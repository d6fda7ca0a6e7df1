import { useState } from 'react';

/** Copies a text to the clipboard; `copied`: whether the last copy worked (false before any, and after `reset`). */
export function useCopy() {
  const [copied, setCopied] = useState(false);
  const copy = (text: string) => {
    void navigator.clipboard?.writeText(text).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return { copied, copy, reset: () => setCopied(false) };
}
