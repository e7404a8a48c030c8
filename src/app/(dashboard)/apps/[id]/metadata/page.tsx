// The store listing as last seen, and its changelog with each change's words marked, as GET /apps/{id}/metadata and
// GET /apps/{id}/metadata/changelog answer.
import { LISTING_FIELD_NAMES, ListingChange } from '@/components/apps/listing-change';
import { formatInstant } from '@/components/format';
import { serverModules } from '@/app/server-modules';
import { readAppView, type AppViewParams } from '../app-view';

export const metadata = { title: 'Metadata · ASO Analytics' };

const FIELDS = ['title', 'subtitle', 'keywordField', 'promotionalText', 'description', 'whatsNew'] as const;

export default async function MetadataPage(props: AppViewParams) {
  const { caller, app, country } = await readAppView(props);
  const { appErrorOf } = await serverModules();
  const [listing, changelog] = await Promise.all([
    caller.metadata.get({ id: app.id, country }).catch((error: unknown) => {
      if (appErrorOf(error)?.appCode === 'NOT_FOUND') return null;
      throw error;
    }),
    caller.metadata.changelog({ id: app.id, country }),
  ]);
  return (
    <>
      <section className="panel" aria-labelledby="listing-title">
        <div className="row" style={{ justifyContent: 'space-between', alignItems: 'center' }}>
          <h2 id="listing-title" style={{ margin: 0 }}>
            Store listing ({country})
          </h2>
        </div>
        {!listing ? (
          <p className="muted">No listing seen in {country} yet.</p>
        ) : (
          <dl className="listing" data-testid="listing">
            {FIELDS.map((key) => (
              <div key={key}>
                <dt>{LISTING_FIELD_NAMES[key]}</dt>
                <dd style={{ whiteSpace: 'pre-wrap' }} data-field={key}>
                  {listing[key] ?? <span className="muted">Not available</span>}
                </dd>
              </div>
            ))}
            <div>
              <dt>Version</dt>
              <dd>{listing.version}</dd>
            </div>
            <div>
              <dt>Price</dt>
              <dd>
                {listing.price} {listing.currency}
              </dd>
            </div>
            <div>
              <dt>Screenshots</dt>
              <dd>
                {listing.screenshotsCount}
                {listing.hasVideo ? ' and a preview video' : ''}
              </dd>
            </div>
            <div>
              <dt>Seen since</dt>
              <dd>{formatInstant(listing.capturedAt)}</dd>
            </div>
          </dl>
        )}
      </section>
      <section className="panel" aria-labelledby="changelog-title">
        <h2 id="changelog-title">Changelog</h2>
        {changelog.changes.length === 0 ? (
          <p className="muted">No change to the listing in {country} since we started tracking it.</p>
        ) : (
          <ol className="changelog" data-testid="changelog" reversed>
            {changelog.changes.map((change, index) => (
              <li key={`${change.changedAt}-${change.field}-${index}`} data-field={change.field}>
                <p>
                  <strong>{LISTING_FIELD_NAMES[change.field] ?? change.field}</strong>{' '}
                  <span className="muted">changed {formatInstant(change.changedAt)}</span>
                </p>
                <ListingChange field={change.field} before={change.before} after={change.after} />
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  );
}
