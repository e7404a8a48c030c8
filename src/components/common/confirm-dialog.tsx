'use client';
// The one confirmation dialog of the dashboard (Radix's AlertDialog primitive: focus moves in and is trapped, Escape
// and Cancel close it, focus returns to what opened it, and it is announced as an alertdialog with its title and
// description). It stays open while the action runs and shows the action's problem in place when it fails.
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { errorMessage } from '@/components/trpc';

/** An element to move focus to that is not focusable by itself (a heading): focusable by script only. */
export function focusable(element: HTMLElement | null): HTMLElement | null {
  if (element && !element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
  return element;
}

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** What happens, and what is lost, in a sentence or two. */
  description: ReactNode;
  /** Choices the action takes (a grace period…), between the description and the buttons. */
  children?: ReactNode;
  confirmLabel: string;
  tone?: 'danger' | 'primary';
  onConfirm: () => Promise<void>;
  /** Where focus goes once the dialog closed after the action, when what opened it is gone (a revoked key's row). */
  focusAfter?: () => HTMLElement | null;
  testId?: string;
  /** Of the confirm button; `<testId>-confirm` by default. */
  confirmTestId?: string;
}

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  confirmLabel,
  tone = 'danger',
  onConfirm,
  focusAfter,
  testId,
  confirmTestId,
}: ConfirmDialogProps) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Whether this opening ended with the action done (focus then goes to `focusAfter`), and what had focus when it
  // opened: Radix returns focus to its own Trigger only, and these dialogs are opened by buttons of their own (one per
  // table row), so the dialog gives focus back itself.
  const done = useRef(false);
  const opener = useRef<HTMLElement | null>(null);
  const wasOpen = useRef(false);
  if (open && !wasOpen.current && typeof document !== 'undefined') {
    opener.current = document.activeElement as HTMLElement | null;
    done.current = false;
  }
  wasOpen.current = open;
  useEffect(() => {
    if (open) setError(null);
  }, [open]);

  async function confirm() {
    setPending(true);
    setError(null);
    try {
      await onConfirm();
      done.current = true;
      onOpenChange(false);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setPending(false);
    }
  }

  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content
          className="dialog"
          data-testid={testId}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            const back = opener.current?.isConnected ? opener.current : null;
            const target = (done.current && focusAfter?.()) || back || focusAfter?.();
            target?.focus();
          }}
        >
          <AlertDialog.Title>{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div>{description}</div>
          </AlertDialog.Description>
          {children}
          {error && (
            <p className="notice" role="alert">
              {error}
            </p>
          )}
          <div className="row">
            <button
              type="button"
              className={tone === 'danger' ? 'danger solid' : 'primary'}
              onClick={confirm}
              disabled={pending}
              data-testid={confirmTestId ?? (testId && `${testId}-confirm`)}
            >
              {confirmLabel}
            </button>
            <AlertDialog.Cancel asChild>
              <button type="button">Cancel</button>
            </AlertDialog.Cancel>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
