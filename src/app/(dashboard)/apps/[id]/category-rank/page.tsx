// Category rank history, as GET /apps/{id}/category-rank answers, over 30, 90 or 365 days (`days` in the URL).
import Link from 'next/link';
import { TimeSeriesChart } from '@/components/charts/time-series-chart';
import { param, readAppView, type AppViewParams } from '../app-view';

export const metadata = { title: 'Category rank · ASO Analytics' };

const DAYS = [30, 90, 365];

export default async function CategoryRankPage(props: AppViewParams) {
  const { caller, app, country, query } = await readAppView(props);
  const days = DAYS.includes(Number(param(query, 'days'))) ? Number(param(query, 'days')) : 30;
  const history = await caller.apps.categoryRank({ id: app.id, country, days });
  const ranked = history.points.filter((point) => point.rank !== null);
  return (
    <section className="panel" aria-labelledby="category-title">
      <div className="row" style={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <h2 id="category-title" style={{ margin: 0 }}>
          Category rank: top free {history.category} ({country})
        </h2>
      </div>
      <nav aria-label="Period" className="row" style={{ margin: '0.75rem 0' }}>
        {DAYS.map((option) => (
          <Link
            key={option}
            href={`?country=${country}&days=${option}`}
            aria-current={option === days ? 'page' : undefined}
            className="button"
            scroll={false}
          >
            {option} days
          </Link>
        ))}
      </nav>
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
