'use client';
// A destructive action behind a confirmation dialog that says what is lost: removing an app, a keyword, a competitor.
// The page's data is read again once it is done.
import { useRef } from 'react';
import { useAction } from '@/components/use-action';

interface Props {
  /** The button's text, and the dialog's confirm button. */
  label: string;
  /** Accessible name of the button when its text alone is ambiguous (one per table row). */
  ariaLabel?: string;
  title: string;
  /** What is lost, in a sentence or two. */
  consequence: React.ReactNode;
  onConfirm: () => Promise<void>;
  testId?: string;
}

export function ConfirmButton({ label, ariaLabel, title, consequence, onConfirm, testId }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const { run, pending, error } = useAction();
  async function confirm() {
    await run(async () => {
      await onConfirm();
      dialog.current?.close();
    });
  }
  return (
    <>
      <button type="button" className="danger" aria-label={ariaLabel} onClick={() => dialog.current?.showModal()} data-testid={testId}>
        {label}
      </button>
      <dialog ref={dialog} aria-label={title}>
        <h3 style={{ marginTop: 0 }}>{title}</h3>
        <p>{consequence}</p>
        {error && <p className="notice" role="alert">{error}</p>}
        <div className="row">
          <button type="button" className="danger solid" onClick={confirm} disabled={pending} data-testid={testId && `${testId}-confirm`}>
            {label}
          </button>
          <button type="button" onClick={() => dialog.current?.close()}>Cancel</button>
        </div>
      </dialog>
    </>
  );
}
