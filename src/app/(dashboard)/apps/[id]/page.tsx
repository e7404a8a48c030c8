// An app's overview: its ASO score, its tracked keywords in one storefront, and their rank history compared.
import { AsoScorePanel } from '@/components/apps/aso-score-panel';
import { RemoveAppButton, TrackKeywordsForm } from '@/components/apps/app-actions';
import { KeywordWorkspace } from '@/components/apps/keyword-workspace';
import { chartStateOf, daysOf } from '@/components/apps/rank-chart-state';
import { readAppView, type AppViewParams } from './app-view';

export const metadata = { title: 'App · ASO Analytics' };

export default async function AppOverviewPage(props: AppViewParams) {
  const { caller, app, country, query } = await readAppView(props);
  const id = app.id;
  const [keywords, score, sparklines] = await Promise.all([
    caller.keywords.list({ id, country }),
    app.dataThrough ? caller.apps.asoScore({ id, country }).catch(() => null) : null,
    caller.keywords.recentRanks({ id, country, days: 7 }),
  ]);
  const loading = app.backfill !== null && (app.backfill.status === 'queued' || app.backfill.status === 'running');
  const chart = chartStateOf(
    query,
    keywords.map((item) => item.keywordId),
  );
  const days = daysOf(chart, app.dataThrough);
  const initialHistories = await Promise.all(
    chart.compare.map(async (keywordId) => ({ ...(await caller.keywords.history({ id, keywordId, days })), days })),
  );

  return (
    <>
      {score && <AsoScorePanel score={score} />}
      <section className="panel" aria-labelledby="keywords-title">
        <div className="row" style={{ justifyContent: 'space-between', alignItems: 'center' }}>
          <h2 id="keywords-title" style={{ margin: 0 }}>
            Tracked keywords ({country})
          </h2>
        </div>
        <TrackKeywordsForm appId={id} country={country} />
        <KeywordWorkspace
          key={country}
          appId={id}
          appName={app.name}
          country={country}
          keywords={keywords}
          sparklines={Object.fromEntries(sparklines.map((item) => [item.keywordId, item.points]))}
          dataThrough={app.dataThrough}
          initial={chart}
          initialHistories={initialHistories}
          emptyMessage={
            loading
              ? 'Keywords you track show their ranks once the history has loaded.'
              : `No tracked keywords in ${country} yet: add the terms your users search for above.`
          }
        />
      </section>
      {/* Last on the app's first page, not in the header of every view: the one action here that loses data. */}
      <section className="panel" aria-labelledby="remove-app-title">
        <h2 id="remove-app-title">Remove this app</h2>
        <p className="muted">
          Stops its daily observation and deletes what was tracked for it here: keywords, competitors and their history.
        </p>
        <RemoveAppButton appId={id} name={app.name} />
      </section>
    </>
  );
}
