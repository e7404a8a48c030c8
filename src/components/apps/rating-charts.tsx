'use client';
// Ratings' two charts (the store's average, on the whole 1–5 scale, and the number of ratings) over one range: the
// history is read whole, so a range is a slice of it, at once.
import { useState } from 'react';
import { RangeControl, rangeDays, type RangeValue } from '@/components/charts/range-control';
import { TimeSeriesChart } from '@/components/charts/time-series-chart';

interface Point {
  date: string;
  average: number;
  count: number;
}

export function RatingCharts({ points }: { points: Point[] }) {
  const [range, setRange] = useState<RangeValue>({ preset: '90', from: null, to: null });
  const first = points[0]!.date;
  const last = points.at(-1)!.date;
  const { from, to } = rangeDays(range, last);
  const shown = points.filter((point) => point.date >= from && point.date <= to);
  return (
    <>
      <div className="chart-controls" role="group" aria-label="Chart range">
        <RangeControl
          presets={['30', '90', '365', 'custom']}
          value={range}
          onChange={setRange}
          min={first}
          max={last}
          customTo
          testId="ratings-range"
        />
      </div>
      <h3>
        Store rating, {shown[0]?.date ?? from} to {shown.at(-1)?.date ?? to}
      </h3>
      <TimeSeriesChart
        points={shown.map((point) => ({ date: point.date, value: point.average }))}
        name="Average rating"
        domain={[1, 5]}
        ticks={[1, 2, 3, 4, 5]}
        decimals={2}
        testId="rating-chart"
      />
      <h3>Number of ratings</h3>
      <TimeSeriesChart
        points={shown.map((point) => ({ date: point.date, value: point.count }))}
        name="Number of ratings"
        testId="rating-count-chart"
      />
    </>
  );
}
