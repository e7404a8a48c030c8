'use client';
// Copies a text to the clipboard, says so on the button for a moment, and confirms it with a toast.
import { useState } from 'react';
import { toast } from 'sonner';

interface Props {
  text: string;
  label?: string;
  /** What is copied, for the toast: "Secret copied". */
  what?: string;
  testId?: string;
}

export function CopyButton({ text, label = 'Copy', what = 'Text', testId }: Props) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard.writeText(text).then(
      () => {
        setCopied(true);
        toast.success(`${what} copied to the clipboard`);
        setTimeout(() => setCopied(false), 2000);
      },
      () => {
        setCopied(false);
        toast.error('The browser did not allow copying: select the text and copy it by hand.');
      },
    );
  }
  return (
    <button type="button" onClick={copy} data-testid={testId}>
      {copied ? 'Copied' : label}
    </button>
  );
}
