// Reviews, paged and filtered by rating and sentiment, and what they say (insights), as GET /apps/{id}/reviews and
// GET /apps/{id}/reviews/insights answer. The filters are a GET form: the page's address is the query. An app one of
// the account's store accounts publishes shows its every review read with it, by default, with its answer: a member
// drafts a reply where the review is, and one whose role allows it approves the drafts (an agent's too) here.
import Link from 'next/link';
import { serverModules } from '@/app/server-modules';
import { DraftDecision, DraftReply } from '@/components/reviews/reply-actions';
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
const DRAFT_STATES: Record<string, string> = {
  drafted: 'Waiting for approval',
  approved: 'Approved, being sent',
  sending: 'Being sent',
  sent: 'Sent',
  failed: 'Not sent',
  rejected: 'Refused by the store',
  discarded: 'Discarded',
  superseded: 'Replaced by a newer draft',
};

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
  // An owned app's reviews are the store account's (every one, with its answer) unless the public feed is asked for.
  const source = app.owned && param(query, 'source') !== 'public' ? ('store_account' as const) : ('public' as const);
  const { roleAllows, REPLY_LIMITS } = await serverModules();
  const [reviews, insights, ratings, held, account, drafts] = await Promise.all([
    caller.reviews.list({ id: app.id, page, pageSize: PAGE_SIZE, rating, sentiment, sort, source }),
    caller.reviews.insights({ id: app.id }),
    caller.apps.ratingHistory({ id: app.id }),
    filtered ? caller.reviews.list({ id: app.id, page: 1, pageSize: 1, source }).then((all) => all.total) : null,
    caller.account.get(),
    app.owned ? caller.reviews.replyDrafts({ id: app.id, page: 1, pageSize: 10 }) : null,
  ]);
  const canDraft = roleAllows(account.role, 'data.write');
  const canApprove = roleAllows(account.role, 'replies.approve');
  const waiting = drafts?.items.filter((draft) => draft.state === 'drafted') ?? [];
  const sourceLink = (target: 'public' | 'store_account') =>
    `?${new URLSearchParams({ ...(target === 'public' ? { source: 'public' } : {}), sort })}`;
  const heldTotal = held ?? reviews.total;
  const storeRating = ratings.points.at(-1) ?? null;
  const pageLink = (target: number) => {
    const params = new URLSearchParams({
      ...(rating ? { rating: String(rating) } : {}),
      ...(sentiment ? { sentiment } : {}),
      ...(source === 'public' && app.owned ? { source } : {}),
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
            <div className="muted">
              {source === 'store_account'
                ? 'every review your store account gives, listed below'
                : 'every review we have read, listed below'}
            </div>
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

      {drafts && (
        <section className="panel" aria-labelledby="replies-title" data-testid="reply-drafts">
          <h2 id="replies-title">
            Replies <span className="muted">({formatNumber(waiting.length)} waiting for approval)</span>
          </h2>
          {drafts.items.length === 0 ? (
            <p className="muted">
              No reply drafted yet. Reply to a review below, or let an agent draft replies (the{' '}
              <code>reviews_draft_reply</code> tool): each waits here for an owner or an admin to approve it.
            </p>
          ) : (
            <TableScroll label="Replies">
              <table data-testid="reply-drafts-table">
                <thead>
                  <tr>
                    <th>Review</th>
                    <th>Reply</th>
                    <th>State</th>
                  </tr>
                </thead>
                <tbody>
                  {drafts.items.map((draft) => {
                    const who = draft.review.author ?? 'a reviewer';
                    return (
                      <tr key={draft.id} data-draft-id={draft.id}>
                        <td>
                          <LongText>
                            <span aria-hidden="true">{'★'.repeat(draft.review.rating)}</span>
                            <span className="visually-hidden">{draft.review.rating} stars</span>{' '}
                            {draft.review.title ?? ''} <span className="muted">— {who}</span>
                          </LongText>
                        </td>
                        <td>
                          <LongText>
                            {draft.action === 'delete' ? <em>Delete the answer</em> : draft.body}
                            <br />
                            <span className="muted">
                              Drafted by {draft.draftedBy}, {formatInstant(draft.createdAt)}
                              {draft.approvedBy && `; approved by ${draft.approvedBy}`}
                            </span>
                          </LongText>
                        </td>
                        <td>
                          <span
                            className={`badge ${draft.state === 'sent' ? 'active' : draft.state === 'failed' || draft.state === 'rejected' ? 'revoked' : ''}`}
                            data-testid="draft-state"
                          >
                            {DRAFT_STATES[draft.state] ?? draft.state}
                          </span>
                          {draft.problem && (
                            <p className="muted" data-testid="draft-problem">
                              {draft.problem}
                            </p>
                          )}
                          {draft.state === 'drafted' && canDraft && (
                            <DraftDecision
                              appId={app.id}
                              draftId={draft.id}
                              canApprove={canApprove}
                              label={`${draft.action === 'delete' ? 'deletion of the answer' : 'reply'} to ${who}`}
                            />
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </TableScroll>
          )}
        </section>
      )}

      <section className="panel" aria-labelledby="reviews-title">
        <h2 id="reviews-title">
          Reviews{' '}
          <span className="muted">
            ({formatNumber(reviews.total)}
            {filtered ? ` of ${formatNumber(heldTotal)} matching` : ' held'})
          </span>
        </h2>
        {app.owned && (
          <nav aria-label="Where the reviews come from" className="row" style={{ marginBottom: '0.75rem' }}>
            <Link
              href={sourceLink('store_account')}
              className="button"
              aria-current={source === 'store_account' ? 'page' : undefined}
              data-testid="source-store-account"
            >
              Your store account
            </Link>
            <Link
              href={sourceLink('public')}
              className="button"
              aria-current={source === 'public' ? 'page' : undefined}
              data-testid="source-public"
            >
              Public feed
            </Link>
          </nav>
        )}
        <AutoSubmitForm label="Filter reviews">
          {source === 'public' && app.owned && <input type="hidden" name="source" value="public" />}
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
                          — {review.author}, {review.country ?? review.language ?? ''},{' '}
                          {formatInstant(review.reviewedAt)}
                        </span>
                        <br />
                        {review.body}
                        {review.response && (
                          <>
                            <br />
                            <span className="muted" data-testid="review-answer">
                              Your answer{review.response.state === 'PENDING_PUBLISH' ? ' (being published)' : ''}:{' '}
                              {review.response.body}
                            </span>
                          </>
                        )}
                      </LongText>
                      {review.source === 'store_account' && (
                        <div style={{ marginTop: '0.35rem' }}>
                          {review.replyDraft ? (
                            <span className="badge" data-testid="review-draft-state">
                              {DRAFT_STATES[review.replyDraft.state] ?? review.replyDraft.state}
                            </span>
                          ) : (
                            canDraft && (
                              <DraftReply
                                appId={app.id}
                                reviewId={review.id}
                                store={app.store}
                                maxLength={REPLY_LIMITS[app.store]}
                                answer={review.response?.body ?? null}
                                author={review.author || 'this reviewer'}
                              />
                            )
                          )}
                        </div>
                      )}
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
