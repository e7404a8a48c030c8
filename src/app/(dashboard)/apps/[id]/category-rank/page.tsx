// Category rank history, as GET /apps/{id}/category-rank answers, over the range the address holds (`range`, `from`;
// the older `days` too), 30 days by default.
import { dayCount, type RangePreset, type RangeValue } from '@/components/charts/range-control';
import { TimeSeriesChart } from '@/components/charts/time-series-chart';
import { UrlRangeControl } from '@/components/charts/url-range-control';
import { readAppView, type AppViewParams } from '../app-view';

export const metadata = { title: 'Category rank · ASO Analytics' };

const PRESETS: RangePreset[] = ['30', '90', '365', 'custom'];

/** The range the address asks for; `days=N` (the links of before) as "the last N days" when N is a preset. */
function rangeOf(query: Record<string, string | string[] | undefined>): RangeValue {
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
  const asked = text('range') ?? text('days');
  const preset = PRESETS.find((option) => option === asked) ?? '30';
  const from = /^\d{4}-\d{2}-\d{2}$/.test(text('from') ?? '') ? text('from')! : null;
  return { preset: preset === 'custom' && !from ? '30' : preset, from, to: null };
}

export default async function CategoryRankPage(props: AppViewParams) {
  const { caller, app, country, query } = await readAppView(props);
  const range = rangeOf(query);
  const last = app.dataThrough ?? new Date().toISOString().slice(0, 10);
  const days =
    range.preset === 'custom'
      ? Math.min(365, Math.max(1, dayCount({ from: range.from!, to: last })))
      : Number(range.preset);
  const history = await caller.apps.categoryRank({ id: app.id, country, days });
  const ranked = history.points.filter((point) => point.rank !== null);
  return (
    <section className="panel" aria-labelledby="category-title">
      <div className="row" style={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <h2 id="category-title" style={{ margin: 0 }}>
          Category rank: top free {history.category} ({country})
        </h2>
      </div>
      <UrlRangeControl presets={PRESETS} value={range} max={last} testId="category-range" />
      {ranked.length === 0 ? (
        <p className="muted">
          Not in the top 200 of its category on any day from {history.from} to {history.to}.
        </p>
      ) : (
        <>
          <p className="muted" data-testid="category-latest">
            Latest: {history.points.at(-1)?.rank === null ? 'outside the top 200' : `#${history.points.at(-1)!.rank}`}{' '}
            on {history.to}; best #{Math.min(...ranked.map((point) => point.rank!))}.
          </p>
          <TimeSeriesChart
            points={history.points.map((point) => ({ date: point.date, value: point.rank }))}
            name="Category rank"
            inverted
            testId="category-chart"
          />
        </>
      )}
    </section>
  );
}
