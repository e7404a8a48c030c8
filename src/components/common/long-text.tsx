// Long text in a table's cell (a review, an opportunity's reason): whole on a wide screen; on a phone, its first three
// lines, and whole once tapped or focused (globals.css, `.long-text`), so that every row stays a glance tall. Focusable
// for that reason: a tap focuses only what can take focus.
import type { ReactNode } from 'react';

export function LongText({ children }: { children: ReactNode }) {
  return (
    <div className="long-text" tabIndex={0}>
      {children}
    </div>
  );
}
