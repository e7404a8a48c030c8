'use client';
// A destructive action behind the confirmation dialog: removing an app, a keyword, a competitor, a webhook endpoint.
// A toast confirms it, and the page's data is read again. The button is a plain one: red is the dialog's confirm
// alone, so that a table of rows is not a column of red buttons.
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog, focusable } from './confirm-dialog';

interface Props {
  /** The button's text, and the dialog's confirm button. */
  label: string;
  /** Accessible name of the button when its text alone is ambiguous (one per table row). */
  ariaLabel?: string;
  title: string;
  /** What is lost, in a sentence or two. */
  consequence: React.ReactNode;
  onConfirm: () => Promise<void>;
  /** The toast once it is done. */
  done: string;
  testId?: string;
}

export function ConfirmButton({ label, ariaLabel, title, consequence, onConfirm, done, testId }: Props) {
  const [open, setOpen] = useState(false);
  const router = useRouter();
  return (
    <>
      <button type="button" aria-label={ariaLabel} onClick={() => setOpen(true)} data-testid={testId}>
        {label}
      </button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={title}
        description={consequence}
        confirmLabel={label}
        testId={testId && `${testId}-dialog`}
        confirmTestId={testId && `${testId}-confirm`}
        // The button itself is usually gone with what it removed: the page's heading takes focus.
        focusAfter={() => focusable(document.querySelector<HTMLElement>('main h1'))}
        onConfirm={async () => {
          await onConfirm();
          toast.success(done);
          router.refresh();
        }}
      />
    </>
  );
}
