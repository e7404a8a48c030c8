'use client';
// The range control of a page the server draws (category rank): the choice goes into the address (`range`, `from`),
// and the page reads it again there, so that a link keeps it.
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState, useTransition } from 'react';
import { RangeControl, type RangePreset, type RangeValue } from './range-control';

interface Props {
  presets: RangePreset[];
  value: RangeValue;
  max: string;
  testId: string;
}

export function UrlRangeControl({ presets, value, max, testId }: Props) {
  const router = useRouter();
  const pathname = usePathname();
  const query = useSearchParams();
  const [pending, startTransition] = useTransition();
  // What is chosen, ahead of the address: a custom range shows its day field before its first day is given.
  const [draft, setDraft] = useState(value);
  return (
    <div className="chart-controls" role="group" aria-label="Chart range" aria-busy={pending}>
      <RangeControl
        presets={presets}
        value={draft}
        max={max}
        testId={testId}
        onChange={(next) => {
          setDraft(next);
          const params = new URLSearchParams(query);
          params.delete('days');
          params.set('range', next.preset);
          if (next.preset === 'custom' && next.from) params.set('from', next.from);
          else params.delete('from');
          // A custom range without its first day yet waits for it.
          if (next.preset === 'custom' && !next.from) return;
          startTransition(() => router.replace(`${pathname}?${params}`, { scroll: false }));
        }}
      />
    </div>
  );
}
