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
}: Props) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild disabled={disabled}>
        <button type="button" className="primary" data-testid={testId && `${testId}-open`}>
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

/** The form's Cancel button: closes the dialog it is in. */
export function DialogCancel() {
  return (
    <Dialog.Close asChild>
      <button type="button">Cancel</button>
    </Dialog.Close>
  );
}
