'use client';
// A table row's actions behind one button (Radix's DropdownMenu: arrow keys move, Escape closes, focus returns to the
// button). Danger actions come last, after a separator, in the menu's ordinary colour: red is kept for the
// confirmation that follows.
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useRef } from 'react';

export interface RowAction {
  label: string;
  onSelect: () => void;
  danger?: boolean;
  disabled?: boolean;
}

interface Props {
  /** What the row is, for the button's name: "Actions for <label>". */
  label: string;
  actions: RowAction[];
  disabled?: boolean;
}

export function RowMenu({ label, actions, disabled }: Props) {
  // The chosen action runs once the menu has closed and focus is back on its button, so that a dialog it opens
  // returns focus there.
  const chosen = useRef<(() => void) | null>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  if (actions.length === 0) return null;
  const safe = actions.filter((action) => !action.danger);
  const danger = actions.filter((action) => action.danger);
  const item = (action: RowAction) => (
    <DropdownMenu.Item
      key={action.label}
      className={action.danger ? 'menu-item danger-item' : 'menu-item'}
      disabled={action.disabled}
      onSelect={() => {
        chosen.current = action.onSelect;
      }}
    >
      {action.label}
    </DropdownMenu.Item>
  );
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild disabled={disabled}>
        <button ref={trigger} type="button" className="row-menu-trigger" aria-label={`Actions for ${label}`}>
          <span aria-hidden="true">⋯</span>
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className="menu"
          align="end"
          sideOffset={4}
          onCloseAutoFocus={(event) => {
            const next = chosen.current;
            chosen.current = null;
            if (!next) return;
            event.preventDefault();
            trigger.current?.focus();
            next();
          }}
        >
          {safe.map(item)}
          {safe.length > 0 && danger.length > 0 && <DropdownMenu.Separator className="menu-separator" />}
          {danger.map(item)}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
