'use client';
// Copies a text to the clipboard and says so on the button (and to screen readers) for a moment.
import { useState } from 'react';

export function CopyButton({ text, label = 'Copy', testId }: { text: string; label?: string; testId?: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard.writeText(text).then(
      () => {
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      },
      () => setCopied(false),
    );
  }
  return (
    <button type="button" onClick={copy} data-testid={testId} aria-live="polite">
      {copied ? 'Copied' : label}
    </button>
  );
}
