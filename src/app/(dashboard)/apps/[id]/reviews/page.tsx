// Reviews, paged and filtered by rating and sentiment, and what they say (insights), as GET /apps/{id}/reviews and
// GET /apps/{id}/reviews/insights answer. The filters are a GET form: the page's address is the query.
import Link from 'next/link';
import { LongText } from '@/components/common/long-text';
import { TableScroll } from '@/components/common/table-scroll';
import { AutoSubmitForm } from '@/components/common/auto-submit-form';
import { formatCount, formatInstant, formatNumber } from '@/components/format';
import { param, readAppView, type AppViewParams } from '../app-view';

export const metadata = { title: 'Reviews · ASO Analytics' };

const PAGE_SIZE = 20;
const SORTS = [
  ['newest', 'Newest first'],
  ['oldest', 'Oldest first'],
  ['highest', 'Highest rating'],
  ['lowest', 'Lowest rating'],
] as const;
const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;

const percent = (share: number) => `${Math.round(share * 100)} %`;

export default async function ReviewsPage(props: AppViewParams) {
  const { caller, app, query } = await readAppView(props);
  const rating = ['1', '2', '3', '4', '5'].includes(param(query, 'rating') ?? '')
    ? Number(param(query, 'rating'))
    : undefined;
  const sentiment = SENTIMENTS.find((label) => label === param(query, 'sentiment'));
  const sort = SORTS.find(([value]) => value === param(query, 'sort'))?.[0] ?? 'newest';
  const page = Math.min(1_000_000, Math.max(1, Number.parseInt(param(query, 'page') ?? '1', 10) || 1));
  const filtered = rating !== undefined || sentiment !== undefined;
  const [reviews, insights, ratings, held] = await Promise.all([
    caller.reviews.list({ id: app.id, page, pageSize: PAGE_SIZE, rating, sentiment, sort }),
    caller.reviews.insights({ id: app.id }),
    caller.apps.ratingHistory({ id: app.id }),
    filtered ? caller.reviews.list({ id: app.id, page: 1, pageSize: 1 }).then((all) => all.total) : null,
  ]);
  const heldTotal = held ?? reviews.total;
  const storeRating = ratings.points.at(-1) ?? null;
  const pageLink = (target: number) => {
    const params = new URLSearchParams({
      ...(rating ? { rating: String(rating) } : {}),
      ...(sentiment ? { sentiment } : {}),
      sort,
      page: String(target),
    });
    return `?${params}`;
  };

  return (
    <>
      <section className="panel" aria-labelledby="insights-title" data-testid="review-insights">
        <h2 id="insights-title">What reviews say</h2>
        {/* Three numbers that count different things, each said with what it counts, the same here as on Ratings. */}
        <div className="stats" data-testid="review-facts" style={{ marginBottom: '1.25rem' }}>
          <div>
            <div className="muted">Store rating</div>
            <div className="stat" data-testid="fact-store-rating">
              {storeRating ? `${storeRating.average.toFixed(2)} ★` : '—'}
            </div>
            <div className="muted">
              {storeRating
                ? `${formatCount(storeRating.count, 'rating')} on ${storeRating.date}, with or without a review`
                : 'not observed yet'}
            </div>
          </div>
          <div>
            <div className="muted">Reviews held</div>
            <div className="stat" data-testid="fact-reviews-held">
              {formatNumber(heldTotal)}
            </div>
            <div className="muted">every review we have read, listed below</div>
          </div>
          <div>
            <div className="muted">
              Reviews {insights.period.from} to {insights.period.to}
            </div>
            <div className="stat" data-testid="fact-period-reviews">
              {formatNumber(insights.reviewCount)}
              {insights.averageRating !== null && ` · ${insights.averageRating.toFixed(2)} ★`}
            </div>
            <div className="muted">what the shares and topics below count</div>
          </div>
        </div>
        <div className="stats">
          <div>
            <div className="muted">Positive</div>
            <div className="stat" data-testid="share-positive">
              {percent(insights.sentiment.positive.share)}
            </div>
          </div>
          <div>
            <div className="muted">Neutral</div>
            <div className="stat">{percent(insights.sentiment.neutral.share)}</div>
          </div>
          <div>
            <div className="muted">Negative</div>
            <div className="stat">{percent(insights.sentiment.negative.share)}</div>
          </div>
          <div>
            <div className="muted">Bug reports</div>
            <div className="stat" data-testid="bug-share">
              {percent(insights.bugReports.share)}
            </div>
          </div>
          <div>
            <div className="muted">Feature requests</div>
            <div className="stat">{percent(insights.featureRequests.share)}</div>
          </div>
        </div>
        <div className="insight-columns">
          <div>
            <h3>Top topics</h3>
            <ul data-testid="top-topics">
              {insights.topTopics.map((topic) => (
                <li key={topic.name}>
                  {topic.name}{' '}
                  <span className="muted">
                    ({topic.count}, {topic.averageRating.toFixed(1)} ★)
                  </span>
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h3>Bugs reported</h3>
            {insights.bugReports.themes.length === 0 ? (
              <p className="muted">None.</p>
            ) : (
              <ul>
                {insights.bugReports.themes.map((theme) => (
                  <li key={theme.name}>
                    {theme.name} <span className="muted">({theme.count})</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div>
            <h3>Features asked for</h3>
            {insights.featureRequests.requests.length === 0 ? (
              <p className="muted">None.</p>
            ) : (
              <ul>
                {insights.featureRequests.requests.map((request) => (
                  <li key={request.name}>
                    {request.name} <span className="muted">({request.count})</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      </section>

      <section className="panel" aria-labelledby="reviews-title">
        <h2 id="reviews-title">
          Reviews{' '}
          <span className="muted">
            ({formatNumber(reviews.total)}
            {filtered ? ` of ${formatNumber(heldTotal)} matching` : ' held'})
          </span>
        </h2>
        <AutoSubmitForm label="Filter reviews">
          <label>
            Rating
            <select name="rating" defaultValue={rating ? String(rating) : ''}>
              <option value="">Any</option>
              {[5, 4, 3, 2, 1].map((stars) => (
                <option key={stars} value={stars}>
                  {stars} ★
                </option>
              ))}
            </select>
          </label>
          <label>
            Sentiment
            <select name="sentiment" defaultValue={sentiment ?? ''}>
              <option value="">Any</option>
              {SENTIMENTS.map((label) => (
                <option key={label} value={label}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Order
            <select name="sort" defaultValue={sort}>
              {SORTS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        </AutoSubmitForm>
        {reviews.items.length === 0 ? (
          <p className="muted">
            {reviews.total === 0 ? 'No review matches these filters.' : 'No reviews on this page.'}
          </p>
        ) : (
          <TableScroll label="Reviews">
            <table data-testid="reviews-table">
              <thead>
                <tr>
                  <th>Rating</th>
                  <th>Review</th>
                  <th>Sentiment</th>
                </tr>
              </thead>
              <tbody>
                {reviews.items.map((review) => (
                  <tr key={review.id} data-review-id={review.id}>
                    <td style={{ whiteSpace: 'nowrap' }}>
                      <span aria-hidden="true">
                        {'★'.repeat(review.rating)}
                        {'☆'.repeat(5 - review.rating)}
                      </span>
                      <span className="visually-hidden">{review.rating} stars</span>
                    </td>
                    <td>
                      <LongText>
                        <strong>{review.title}</strong>{' '}
                        <span className="muted">
                          — {review.author}, {review.country}, {formatInstant(review.reviewedAt)}
                        </span>
                        <br />
                        {review.body}
                      </LongText>
                    </td>
                    <td>
                      <span
                        className={`badge ${review.sentiment.label === 'negative' ? 'revoked' : review.sentiment.label === 'positive' ? 'active' : ''}`}
                      >
                        {review.sentiment.label}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        {reviews.totalPages > 1 && (
          <nav aria-label="Pages of reviews" className="row" style={{ marginTop: '0.75rem', alignItems: 'center' }}>
            {page > 1 && (
              <Link href={pageLink(page - 1)} className="button" rel="prev">
                Previous
              </Link>
            )}
            <span className="muted" data-testid="review-page">
              Page {page} of {reviews.totalPages}
            </span>
            {page < reviews.totalPages && (
              <Link href={pageLink(page + 1)} className="button" rel="next">
                Next
              </Link>
            )}
          </nav>
        )}
      </section>
    </>
  );
}
