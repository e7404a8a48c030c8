'use client';
// Tracking terms where they are shown (Opportunities, Keyword spy): a checkbox on each untracked term's row, and a bar
// above the table that tracks the chosen ones after a dialog saying what they use of the plan's keywords and what they
// cost. The plan's room is checked here first so that the button says at once when the choice does not fit;
// keywords.add checks it again under the account's lock, and its refusal shows in the dialog.
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { createContext, useContext, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/common/confirm-dialog';
import { formatCount, formatNumber } from '@/components/format';
import { trpc } from '@/components/trpc';
import type { KeywordRoom } from '@/server/services/apps/apps';

interface Selection {
  selected: ReadonlySet<string>;
  untracked: readonly string[];
  toggle: (terms: readonly string[], on: boolean) => void;
}

const SelectionContext = createContext<Selection | null>(null);

function useSelection(): Selection {
  const selection = useContext(SelectionContext);
  if (!selection) throw new Error('A term’s checkbox belongs inside <TrackTerms>.');
  return selection;
}

const keywords = (count: number) => formatCount(count, 'keyword');

/** What tracking `count` more terms uses of the plan, in a sentence; `fits` false when they do not all fit. */
function roomText(room: KeywordRoom, count: number): { text: string; fits: boolean } {
  if (room.cap === null)
    return {
      text: `The ${room.plan} plan tracks any number of keywords; this account tracks ${keywords(room.tracked)}.`,
      fits: true,
    };
  const left = Math.max(0, room.cap - room.tracked);
  if (count > left)
    return {
      text: `Only ${keywords(left)} more fit on the ${room.plan} plan (${formatNumber(room.tracked)} of ${formatNumber(room.cap)} tracked): choose fewer, or change plan.`,
      fits: false,
    };
  return {
    text: `Uses ${formatNumber(count)} of the ${formatNumber(left)} left on the ${room.plan} plan (${formatNumber(room.tracked)} of ${formatNumber(room.cap)} tracked).`,
    fits: true,
  };
}

export function TrackTerms({
  appId,
  country,
  untracked,
  room,
  children,
}: {
  appId: string;
  country: string;
  /** The terms of the table that the app does not track in `country` yet, in the table's order. */
  untracked: string[];
  room: KeywordRoom;
  children: ReactNode;
}) {
  const router = useRouter();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [open, setOpen] = useState(false);
  // Terms tracked meanwhile (the page re-rendered after tracking them) leave the selection.
  const selected = new Set(untracked.filter((term) => chosen.has(term)));
  const count = selected.size;
  const { text, fits } = roomText(room, count);
  function toggle(terms: readonly string[], on: boolean) {
    setChosen((before) => {
      const next = new Set(before);
      for (const term of terms) {
        if (on) next.add(term);
        else next.delete(term);
      }
      return next;
    });
  }
  async function track() {
    const terms = [...selected];
    const result = await trpc.keywords.add.mutate({ id: appId, terms, country });
    toast.success(
      `${keywords(result.added.length)} tracked in ${country}${result.alreadyTracked.length ? `; ${formatNumber(result.alreadyTracked.length)} already were` : ''}`,
    );
    setChosen(new Set());
    router.refresh();
  }
  return (
    <SelectionContext.Provider value={{ selected, untracked, toggle }}>
      <div className="track-bar" role="group" aria-label="Track terms" data-testid="track-bar">
        <span className={fits ? 'muted' : 'notice'} aria-live="polite" data-testid="track-room">
          {untracked.length === 0
            ? `Every term here is tracked in ${country}.`
            : count === 0
              ? 'Choose terms to track them.'
              : text}
          {!fits && (
            <>
              {' '}
              <Link href="/settings/billing">Plans</Link>
            </>
          )}
        </span>
        <button
          type="button"
          className="primary"
          disabled={count === 0 || !fits}
          onClick={() => setOpen(true)}
          data-testid="track-selected"
        >
          {count === 0 ? 'Track' : `Track ${keywords(count)}`}
        </button>
      </div>
      {children}
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        tone="primary"
        title={`Track ${keywords(count)} in ${country}?`}
        description={
          <>
            <p>{[...selected].join(', ')}</p>
            <p>
              {text} Each gets its rank history at once, then a new rank every day. No credits: the dashboard’s actions
              are free (over the API, adding keywords costs 2 credits a call).
            </p>
          </>
        }
        confirmLabel="Track"
        onConfirm={track}
        testId="track-dialog"
      />
    </SelectionContext.Provider>
  );
}

/** A table row's first cell: the term's checkbox, or "Tracked" once the app tracks it. */
export function TrackTermCell({ term, tracked }: { term: string; tracked: boolean }) {
  const { selected, toggle } = useSelection();
  if (tracked) return <span className="muted">Tracked</span>;
  return (
    <input
      type="checkbox"
      aria-label={`Choose “${term}” to track`}
      checked={selected.has(term)}
      onChange={(event) => toggle([term], event.currentTarget.checked)}
    />
  );
}

/** The header cell: chooses, or clears, every untracked term of the table. */
export function TrackAllCell() {
  const { selected, untracked, toggle } = useSelection();
  if (untracked.length === 0) return <span className="visually-hidden">Tracked</span>;
  const all = selected.size === untracked.length;
  return (
    <input
      type="checkbox"
      aria-label={all ? 'Clear the chosen terms' : 'Choose every untracked term'}
      checked={all}
      ref={(box) => {
        if (box) box.indeterminate = selected.size > 0 && !all;
      }}
      onChange={(event) => toggle(untracked, event.currentTarget.checked)}
    />
  );
}
