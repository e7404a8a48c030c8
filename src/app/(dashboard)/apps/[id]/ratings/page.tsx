// Rating history, as GET /apps/{id}/rating-history answers: the daily average and the number of ratings.
import { RatingCharts } from '@/components/apps/rating-charts';
import { formatNumber } from '@/components/format';
import { readAppView, type AppViewParams } from '../app-view';

export const metadata = { title: 'Ratings · ASO Analytics' };

export default async function RatingsPage(props: AppViewParams) {
  const { caller, app } = await readAppView(props);
  const history = await caller.apps.ratingHistory({ id: app.id });
  const last = history.points.at(-1);
  return (
    <section className="panel" aria-labelledby="ratings-title">
      <h2 id="ratings-title">Ratings</h2>
      {!last ? (
        <p className="muted">No ratings recorded yet: they appear once the app’s history has loaded.</p>
      ) : (
        <>
          <div className="stats">
            <div>
              <div className="muted">Store rating on {last.date}</div>
              <div className="stat" data-testid="rating-average">
                {last.average.toFixed(2)} ★
              </div>
            </div>
            <div>
              <div className="muted">Ratings, with or without a review</div>
              <div className="stat" data-testid="rating-count">
                {formatNumber(last.count)}
              </div>
            </div>
          </div>
          <RatingCharts points={history.points} />
        </>
      )}
    </section>
  );
}
