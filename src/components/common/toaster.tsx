'use client';
// Toasts (sonner: small, accessible — its region is an aria-live list, so screen readers hear each one — and themable
// with our colours). `toast()` from 'sonner' confirms an action anywhere in the dashboard.
import { Toaster as SonnerToaster } from 'sonner';

export function Toaster() {
  return (
    <SonnerToaster
      position="bottom-right"
      closeButton
      duration={5000}
      toastOptions={{ style: { fontFamily: 'inherit' } }}
    />
  );
}
