'use client';
// A secret shown once (an API key, a webhook signing secret): it takes focus when it appears or changes, so that a
// screen reader reads it and Copy is one Tab away, and it stays until the user says it is saved.
import { useEffect, useId, type ReactNode, type RefObject } from 'react';
import { CopyButton } from './copy-button';

interface Props {
  title: ReactNode;
  secret: string;
  /** What is copied, for the toast: "Secret". */
  what: string;
  /** After "Copy it now". */
  note?: ReactNode;
  /** Below the buttons: how to use it. */
  children?: ReactNode;
  onSaved: () => void;
  /** The box, for where focus goes after a dialog replaced the secret. */
  boxRef: RefObject<HTMLDivElement | null>;
  testId: string;
  valueTestId: string;
}

export function NewSecret({ title, secret, what, note, children, onSaved, boxRef, testId, valueTestId }: Props) {
  const titleId = useId();
  useEffect(() => {
    boxRef.current?.focus();
  }, [secret, boxRef]);
  return (
    <div className="secret" data-testid={testId} ref={boxRef} tabIndex={-1} role="region" aria-labelledby={titleId}>
      <strong id={titleId}>{title}</strong>
      <code data-testid={valueTestId}>{secret}</code>
      <p>
        <strong>Copy it now: you won’t see this secret again.</strong> {note}
      </p>
      <div className="row">
        <CopyButton text={secret} what={what} />
        <button type="button" onClick={onSaved}>
          I have saved it
        </button>
      </div>
      {children}
    </div>
  );
}
