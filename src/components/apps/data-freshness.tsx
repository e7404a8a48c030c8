// How fresh an app's data is: when the store last answered for it, and, when it is stale (the store failing, or no
// observation for more than a day and a half), a clear label with the store's last failure per storefront. The data
// shown stays the last observed: a store outage degrades to stale data, never to an error page.
import { formatAge, formatInstant } from '@/components/format';

/** A daily refresh spread over the day observes each app within 24 h; 36 h without one means one was missed. */
const STALE_AFTER_MS = 36 * 3_600_000;

export interface StorefrontHealth {
  country: string;
  lastObservedAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
}

/** The storefronts whose last provider call failed after their last observation. */
function failing(storefronts: StorefrontHealth[]): StorefrontHealth[] {
  return storefronts.filter(
    (storefront) =>
      storefront.lastErrorAt && (!storefront.lastObservedAt || storefront.lastErrorAt > storefront.lastObservedAt),
  );
}

export function DataFreshness({
  lastObservedAt,
  storefronts,
  now,
}: {
  lastObservedAt: string | null;
  storefronts: StorefrontHealth[];
  now: Date;
}) {
  const failed = failing(storefronts);
  const old = lastObservedAt !== null && now.getTime() - new Date(lastObservedAt).getTime() > STALE_AFTER_MS;
  const stale = failed.length > 0 || old;
  return (
    <div data-testid="data-freshness" data-stale={stale}>
      <p className="muted" style={{ margin: 0 }}>
        {stale && <span className="badge rolled">Stale data</span>}{' '}
        {lastObservedAt ? (
          <>
            Observed{' '}
            <time dateTime={lastObservedAt} title={formatInstant(lastObservedAt)}>
              {formatAge(lastObservedAt, now)} ago
            </time>
          </>
        ) : (
          'Not observed in the store yet'
        )}
        {stale && ': what you see is the last data the store gave; it updates by itself once the store answers again.'}
      </p>
      {failed.length > 0 && (
        <ul className="muted" style={{ margin: '0.25rem 0 0', paddingLeft: '1.25rem' }}>
          {failed.map((storefront) => (
            <li key={storefront.country}>
              {storefront.country}: the store failed at {formatInstant(storefront.lastErrorAt)} ({storefront.lastError})
              {storefront.lastObservedAt
                ? `; last observed ${formatInstant(storefront.lastObservedAt)}`
                : '; never observed'}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
