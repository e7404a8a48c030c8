// Keyword opportunities of one storefront, with the reason for each, as GET /apps/{id}/opportunities answers; the
// untracked ones can be tracked from here.
import { TrackAllCell, TrackTermCell, TrackTerms } from '@/components/apps/track-terms';
import { LongText } from '@/components/common/long-text';
import { TableScroll } from '@/components/common/table-scroll';
import { formatNumber } from '@/components/format';
import { readAppView, type AppViewParams } from '../app-view';

export const metadata = { title: 'Opportunities · ASO Analytics' };

export default async function OpportunitiesPage(props: AppViewParams) {
  const { caller, app, country } = await readAppView(props);
  const [opportunities, room] = await Promise.all([
    app.dataThrough ? caller.apps.opportunities({ id: app.id, country, limit: 50 }) : null,
    caller.keywords.room({}),
  ]);
  return (
    <section className="panel" aria-labelledby="opportunities-title">
      <div className="row" style={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <h2 id="opportunities-title" style={{ margin: 0 }}>
          Keyword opportunities ({country})
        </h2>
      </div>
      <p className="muted">
        Terms ranked by score = 100 × demand × ease × headroom: high volume, low difficulty, and room to climb.
        Candidates are the terms the app ranks for or tracks.
      </p>
      {!opportunities || opportunities.items.length === 0 ? (
        <p className="muted">
          No opportunities yet: they appear once the app has a day of data and ranks for or tracks terms in {country}.
        </p>
      ) : (
        <TrackTerms
          appId={app.id}
          country={country}
          untracked={opportunities.items.filter((item) => !item.tracked).map((item) => item.term)}
          room={room}
        >
          <TableScroll label="Keyword opportunities">
            <table data-testid="opportunities-table">
              <thead>
                <tr>
                  <th>
                    <TrackAllCell />
                  </th>
                  <th>#</th>
                  <th>Keyword</th>
                  <th>Score</th>
                  <th>Volume</th>
                  <th>Difficulty</th>
                  <th>Rank</th>
                  <th>Why</th>
                </tr>
              </thead>
              <tbody>
                {opportunities.items.map((item) => (
                  <tr key={item.term} data-term={item.term}>
                    <td>
                      <TrackTermCell term={item.term} tracked={item.tracked} />
                    </td>
                    <td>{item.position}</td>
                    <td>{item.term}</td>
                    <td data-testid="opportunity-score">{item.score.toFixed(1)}</td>
                    <td>{formatNumber(item.volume)}</td>
                    <td>{item.difficulty}</td>
                    <td>{item.rank ?? '—'}</td>
                    <td>
                      <LongText>{item.reason}</LongText>
                    </td>
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
