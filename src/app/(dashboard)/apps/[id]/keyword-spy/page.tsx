// Every term the app ranks for in one storefront, as GET /apps/{id}/keyword-spy answers; the untracked ones can be
// tracked from here.
import { TrackAllCell, TrackTermCell, TrackTerms } from '@/components/apps/track-terms';
import { TableScroll } from '@/components/common/table-scroll';
import { formatNumber } from '@/components/format';
import { readAppView, type AppViewParams } from '../app-view';

export const metadata = { title: 'Keyword spy · ASO Analytics' };

export default async function KeywordSpyPage(props: AppViewParams) {
  const { caller, app, country } = await readAppView(props);
  const [spy, room] = await Promise.all([
    app.dataThrough ? caller.apps.keywordSpy({ id: app.id, country }) : null,
    caller.keywords.room({}),
  ]);
  return (
    <section className="panel" aria-labelledby="spy-title">
      <div className="row" style={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <h2 id="spy-title" style={{ margin: 0 }}>
          Every keyword the app ranks for ({country})
        </h2>
      </div>
      <p className="muted">
        The terms where the app is in the top 200 of search results in {country}
        {spy ? ` on ${spy.date}` : ''}, best rank first.
      </p>
      {!spy || spy.keywords.length === 0 ? (
        <p className="muted">The app ranks for no term in {country} yet.</p>
      ) : (
        <TrackTerms
          appId={app.id}
          country={country}
          untracked={spy.keywords.filter((item) => !item.tracked).map((item) => item.term)}
          room={room}
        >
          <TableScroll label="Keywords the app ranks for">
            <table data-testid="keyword-spy-table">
              <thead>
                <tr>
                  <th>
                    <TrackAllCell />
                  </th>
                  <th>Keyword</th>
                  <th>Rank</th>
                  <th>Volume</th>
                  <th>Difficulty</th>
                </tr>
              </thead>
              <tbody>
                {spy.keywords.map((item) => (
                  <tr key={item.term} data-term={item.term}>
                    <td>
                      <TrackTermCell term={item.term} tracked={item.tracked} />
                    </td>
                    <td>{item.term}</td>
                    <td>{item.rank}</td>
                    <td>{item.volume === null ? '—' : formatNumber(item.volume)}</td>
                    <td>{item.difficulty ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </TrackTerms>
      )}
    </section>
  );
}
