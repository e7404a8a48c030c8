// A wide table scrolls sideways inside this frame on a small screen, never the page. The frame is a named, focusable
// region, so that keyboard users can scroll it too (axe: scrollable-region-focusable).
import type { ReactNode } from 'react';

export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
