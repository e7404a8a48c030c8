'use client';
// A create form in a dialog (Radix's Dialog: focus moves in and is trapped, Escape and Cancel close it, focus returns
// to the button that opened it). The page stays a list of what exists; the form is there when asked for.
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opens it, on the page. */
  openLabel: string;
  title: string;
  description?: ReactNode;
  disabled?: boolean;
  children: ReactNode;
  /** Where focus goes as it closes after its work, instead of back to the button (a secret shown once). */
  focusAfter?: () => HTMLElement | null;
  testId?: string;
  /** A plain button rather than the page's primary one: an action repeated on every row (Reply). */
  plain?: boolean;
}

export function FormDialog({
  open,
  onOpenChange,
  openLabel,
  title,
  description,
  disabled,
  children,
  focusAfter,
  testId,
  plain,
}: Props) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild disabled={disabled}>
        <button type="button" className={plain ? undefined : 'primary'} data-testid={testId && `${testId}-open`}>
          {openLabel}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog wide"
          data-testid={testId}
          onCloseAutoFocus={(event) => {
            const target = focusAfter?.();
            if (!target) return;
            event.preventDefault();
            target.focus();
          }}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <Dialog.Title>{title}</Dialog.Title>
          {description && <Dialog.Description asChild>{<div>{description}</div>}</Dialog.Description>}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The end of a dialog's form: its problem when the last try failed, then submit and Cancel (which closes it). */
export function DialogActions({ error, pending, submit }: { error: string | null; pending: boolean; submit: string }) {
  return (
    <>
      {error && (
        <p className="error" role="alert" style={{ flexBasis: '100%' }}>
          {error}
        </p>
      )}
      <div className="row" style={{ flexBasis: '100%' }}>
        <button className="primary" type="submit" disabled={pending}>
          {submit}
        </button>
        <Dialog.Close asChild>
          <button type="button">Cancel</button>
        </Dialog.Close>
      </div>
    </>
  );
}
