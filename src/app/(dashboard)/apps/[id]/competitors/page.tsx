// The competitors followed for an app, as GET /apps/{id}/competitors answers.
import { AddCompetitor } from '@/components/apps/add-competitor';
import { RemoveCompetitorButton } from '@/components/apps/app-actions';
import { TableScroll } from '@/components/common/table-scroll';
import { formatInstant, formatNumber, formatStore } from '@/components/format';
import { readAppView, type AppViewParams } from '../app-view';

export const metadata = { title: 'Competitors · ASO Analytics' };

export default async function CompetitorsPage(props: AppViewParams) {
  const { caller, app } = await readAppView(props);
  const competitors = await caller.competitors.list({ id: app.id });
  return (
    <section className="panel" aria-labelledby="competitors-title">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h2 id="competitors-title">Competitors</h2>
        <AddCompetitor appId={app.id} store={app.store} />
      </div>
      {competitors.length === 0 ? (
        <div className="empty">
          <p>
            <strong>No competitors yet.</strong>
          </p>
          <p className="muted">
            Add one with its store page address; it appears here, with its ranks in keyword spy. Over the API:{' '}
            <code>POST /apps/{'{id}'}/competitors</code>.
          </p>
        </div>
      ) : (
        <TableScroll label="Competitors">
          <table data-testid="competitors-table">
            <thead>
              <tr>
                <th>Competitor</th>
                <th>Store</th>
                <th>Category</th>
                <th>Rating</th>
                <th>Added</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {competitors.map((competitor) => (
                <tr key={competitor.id} data-competitor-id={competitor.id}>
                  <td>
                    <a href={competitor.storeUrl} target="_blank" rel="noreferrer">
                      {competitor.name ?? competitor.storeId}
                    </a>{' '}
                    <div className="muted">{competitor.developer}</div>
                  </td>
                  <td>{formatStore(competitor.store)}</td>
                  <td>{competitor.category ?? '—'}</td>
                  <td>
                    {competitor.rating === null ? '—' : `${competitor.rating.toFixed(2)} ★`}
                    {competitor.ratingCount !== null && (
                      <div className="muted">
                        {formatNumber(competitor.ratingCount)} ratings, as of {competitor.describedAt.slice(0, 10)}
                      </div>
                    )}
                  </td>
                  <td>{formatInstant(competitor.createdAt)}</td>
                  <td>
                    <RemoveCompetitorButton
                      appId={app.id}
                      competitorId={competitor.id}
                      name={competitor.name ?? competitor.storeId}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
