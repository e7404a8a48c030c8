import Link from 'next/link';
import { notFound } from 'next/navigation';
import { AddStorefrontForm, RemoveAppButton, RemoveCompetitorButton, RemoveKeywordButton, TrackKeywordsForm } from '@/components/apps/app-actions';
import { BackfillProgress } from '@/components/apps/backfill-progress';
import { RankChart } from '@/components/apps/rank-chart';
import { formatInstant, formatNumber } from '@/components/format';
import { getDashboardCaller, serverModules } from '@/app/server-modules';

export const metadata = { title: 'App · ASO Analytics' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function Delta({ value }: { value: number }) {
  if (value === 0) return <span className="muted">0</span>;
  return <span style={{ color: value > 0 ? 'var(--ok)' : 'var(--danger)' }}>{value > 0 ? `▲ ${value}` : `▼ ${-value}`}</span>;
}

export default async function AppPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ keyword?: string }> }) {
  const { id } = await params;
  const { keyword: selected } = await searchParams;
  if (!UUID.test(id)) notFound();
  const caller = await getDashboardCaller();
  let app;
  try {
    app = await caller.apps.get({ id });
  } catch (error) {
    if ((await serverModules()).appErrorOf(error)?.appCode === 'NOT_FOUND') notFound();
    throw error;
  }
  const [keywords, score, reviews, competitors] = await Promise.all([
    caller.keywords.list({ id }),
    app.dataThrough ? caller.apps.asoScore({ id }).catch(() => null) : null,
    caller.reviews.list({ id, pageSize: 10 }),
    caller.competitors.list({ id }),
  ]);
  const loading = app.backfill !== null && (app.backfill.status === 'queued' || app.backfill.status === 'running');
  const chosen = keywords.find((item) => item.keywordId === selected) ?? keywords[0];
  const history = chosen ? await caller.keywords.history({ id, keywordId: chosen.keywordId, days: 90 }) : null;

  return (
    <>
      <p className="muted"><Link href="/apps">Apps</Link></p>
      <section className="panel">
        <h2 data-testid="app-name">{app.name}</h2>
        <p className="muted">
          {app.developer} · {app.store === 'app_store' ? 'App Store' : 'Google Play'} · {app.category} · {app.primaryCountry} · <span className="mono">{app.id}</span>
        </p>
        <p className="muted" data-testid="storefronts">
          Tracked in {app.storefronts.join(', ')} · {app.dataThrough ? `data through ${app.dataThrough}` : 'no data yet'}
        </p>
        <div className="row" style={{ justifyContent: 'space-between' }}>
          <AddStorefrontForm appId={app.id} />
          <RemoveAppButton appId={app.id} name={app.name} />
        </div>
      </section>

      {app.backfill && <BackfillProgress appId={app.id} initial={app.backfill} />}

      {score && (
        <section className="panel" data-testid="aso-score">
          <h2>ASO score</h2>
          <div className="row" style={{ gap: '2.5rem' }}>
            <div>
              <div className="muted">Score</div>
              <div className="stat" data-testid="aso-score-value">{score.score}</div>
            </div>
            <div><div className="muted">Metadata</div><div className="stat">{score.pillars.metadata.score}</div></div>
            <div><div className="muted">Keywords</div><div className="stat">{score.pillars.keywords.score}</div></div>
            <div><div className="muted">Ratings & reviews</div><div className="stat">{score.pillars.ratingsAndReviews.score}</div></div>
            <div><div className="muted">Creatives</div><div className="stat">{score.pillars.creativesAndConversion.score}</div></div>
          </div>
          <ul>
            {score.recommendations.map((recommendation) => (
              <li key={recommendation.message}>
                <span className="badge">{recommendation.impact}</span> {recommendation.message}
              </li>
            ))}
          </ul>
        </section>
      )}

      <section className="panel">
        <h2>Tracked keywords ({app.primaryCountry})</h2>
        <TrackKeywordsForm appId={app.id} country={app.primaryCountry} />
        {keywords.length === 0 ? (
          <p className="muted">{loading ? 'Keywords you track show their ranks once the history has loaded.' : 'No tracked keywords in this storefront yet: add the terms your users search for.'}</p>
        ) : (
          <table data-testid="keywords-table">
            <thead>
              <tr><th>Keyword</th><th>Rank</th><th>Change (7 days)</th><th>Volume</th><th>Difficulty</th><th><span className="visually-hidden">Actions</span></th></tr>
            </thead>
            <tbody>
              {keywords.map((item) => (
                <tr key={item.keywordId} data-keyword-id={item.keywordId}>
                  <td><Link href={`/apps/${id}?keyword=${item.keywordId}`}>{item.term}</Link></td>
                  <td data-testid="rank">{item.rank ?? '—'}</td>
                  <td data-testid="rank-delta" data-value={item.rankDelta}><Delta value={item.rankDelta} /></td>
                  <td data-testid="volume">{item.volume === null ? '—' : formatNumber(item.volume)}</td>
                  <td data-testid="difficulty">{item.difficulty ?? '—'}</td>
                  <td><RemoveKeywordButton appId={app.id} keywordId={item.keywordId} term={item.term} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {chosen && history && (
          <>
            <h3>Rank of “{chosen.term}”, last 90 days</h3>
            <RankChart points={history.points} term={chosen.term} />
          </>
        )}
      </section>

      <section className="panel">
        <h2>Competitors</h2>
        {competitors.length === 0 ? (
          <p className="muted">No competitors yet: add one with <code>POST /apps/{'{id}'}/competitors</code> and its store URL.</p>
        ) : (
          <table data-testid="competitors-table">
            <thead><tr><th>Competitor</th><th>Store</th><th><span className="visually-hidden">Actions</span></th></tr></thead>
            <tbody>
              {competitors.map((competitor) => (
                <tr key={competitor.id}>
                  <td>{competitor.name ?? competitor.storeId} <span className="muted">{competitor.developer}</span></td>
                  <td>{competitor.store === 'app_store' ? 'App Store' : 'Google Play'}</td>
                  <td><RemoveCompetitorButton appId={app.id} competitorId={competitor.id} name={competitor.name ?? competitor.storeId} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="panel">
        <h2>Latest reviews <span className="muted">({formatNumber(reviews.total)} in all)</span></h2>
        {reviews.items.length === 0 && (
          <p className="muted">{loading ? 'Reviews appear here once the history has loaded.' : 'No reviews recorded for this app yet.'}</p>
        )}
        <table data-testid="reviews-table" hidden={reviews.items.length === 0}>
          <tbody>
            {reviews.items.map((review) => (
              <tr key={review.id}>
                <td style={{ whiteSpace: 'nowrap' }} aria-label={`${review.rating} stars`}>{'★'.repeat(review.rating)}{'☆'.repeat(5 - review.rating)}</td>
                <td>
                  <strong>{review.title}</strong> <span className="muted">— {review.author}, {review.country}, {formatInstant(review.reviewedAt)}</span>
                  <div>{review.body}</div>
                </td>
                <td><span className={`badge ${review.sentiment.label === 'negative' ? 'revoked' : review.sentiment.label === 'positive' ? 'active' : ''}`}>{review.sentiment.label}</span></td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
