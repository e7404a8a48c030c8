'use client';
// The one range control of every chart: a choice of the last 7, 30, 90 or 365 days (or this billing period), or a
// custom range by its first day (and its last, where the chart's end is not the last day of data). A choice applies at
// once, as every other filter of the dashboard does.
import { useId } from 'react';

export type RangePreset = '7' | '30' | '90' | '365' | 'period' | 'custom';

export interface RangeValue {
  preset: RangePreset;
  /** The first day of a custom range. */
  from: string | null;
  /** The last day of a custom range, where the control offers it; else the last day of data. */
  to: string | null;
}

const LABELS: Record<RangePreset, string> = {
  '7': 'Last 7 days',
  '30': 'Last 30 days',
  '90': 'Last 90 days',
  '365': 'Last 365 days',
  period: 'This billing period',
  custom: 'Custom…',
};

export const shiftDay = (day: string, days: number) =>
  new Date(Date.parse(day) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The days a range covers, ending with `last` (the last day of data, or today): both ends, inclusive. A custom range's
 * missing first day is 90 days back; `periodStart` is the first day of "this billing period".
 */
export function rangeDays(value: RangeValue, last: string, periodStart?: string): { from: string; to: string } {
  if (value.preset === 'custom') {
    const to = value.to && value.to <= last ? value.to : last;
    return { from: value.from && value.from <= to ? value.from : shiftDay(to, -89), to };
  }
  if (value.preset === 'period') return { from: periodStart ?? last, to: last };
  return { from: shiftDay(last, -(Number(value.preset) - 1)), to: last };
}

/** Days from `from` to `to`, both counted. */
export function dayCount({ from, to }: { from: string; to: string }): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
}

interface Props {
  presets: RangePreset[];
  value: RangeValue;
  onChange: (value: RangeValue) => void;
  /** The earliest and the latest day a custom range may take. */
  min?: string;
  max: string;
  /** Whether a custom range chooses its last day too (else it ends with `max`). */
  customTo?: boolean;
  /** The select's test id; its date fields take `<testId>-from` and `<testId>-to`. */
  testId: string;
}

export function RangeControl({ presets, value, onChange, min, max, customTo = false, testId }: Props) {
  const id = useId();
  return (
    <>
      <label htmlFor={`${id}-preset`}>
        Range
        <select
          id={`${id}-preset`}
          value={value.preset}
          onChange={(event) => onChange({ ...value, preset: event.target.value as RangePreset })}
          data-testid={testId}
        >
          {presets.map((preset) => (
            <option key={preset} value={preset}>
              {LABELS[preset]}
            </option>
          ))}
        </select>
      </label>
      {value.preset === 'custom' && (
        <>
          <label>
            From
            <input
              type="date"
              value={value.from ?? ''}
              min={min}
              max={value.to ?? max}
              onChange={(event) => onChange({ ...value, from: event.target.value || null })}
              data-testid={`${testId}-from`}
            />
          </label>
          {customTo && (
            <label>
              To
              <input
                type="date"
                value={value.to ?? max}
                min={value.from ?? min}
                max={max}
                onChange={(event) => onChange({ ...value, to: event.target.value || null })}
                data-testid={`${testId}-to`}
              />
            </label>
          )}
        </>
      )}
    </>
  );
}
