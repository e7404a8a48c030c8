'use client';
// Apps → Add app: paste an App Store or Google Play URL, or search the stores by name, then pick a storefront. The app
// is added at once and its history loads in the background (its page shows the progress).
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { formatStore } from '@/components/format';
import { errorMessage, trpc } from '@/components/trpc';

interface Candidate {
  store: 'app_store' | 'google_play';
  storeId: string;
  name: string;
  developer: string;
  storeUrl: string;
}

const looksLikeUrl = (value: string) => /^https?:\/\//i.test(value.trim());

export function AddAppForm({ defaultCountry = 'US' }: { defaultCountry?: string }) {
  const router = useRouter();
  const [query, setQuery] = useState('');
  const [country, setCountry] = useState(defaultCountry);
  const [candidates, setCandidates] = useState<Candidate[] | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function add(storeUrl: string) {
    setPending(true);
    setError(null);
    try {
      const app = await trpc.apps.create.mutate({ storeUrl, country });
      router.push(`/apps/${app.id}`);
      router.refresh();
    } catch (caught) {
      setError(errorMessage(caught));
      setPending(false);
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (looksLikeUrl(query)) return add(query.trim());
    setPending(true);
    setError(null);
    try {
      setCandidates(await trpc.apps.searchStore.query({ term: query, country }));
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="panel" aria-labelledby="add-app-title">
      <h2 id="add-app-title">Add app</h2>
      <form className="row" onSubmit={onSubmit} aria-label="Add app" style={{ alignItems: 'flex-end' }}>
        <label style={{ flex: '1 1 320px' }}>
          Store URL or app name
          <input
            name="query"
            required
            minLength={2}
            maxLength={2048}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder="https://apps.apple.com/us/app/calm/id571800810, or “meditation”"
            style={{ width: '100%' }}
          />
        </label>
        <label>
          Storefront
          <input
            name="country"
            required
            pattern="[A-Za-z]{2}"
            maxLength={2}
            size={3}
            value={country}
            onChange={(event) => setCountry(event.target.value.toUpperCase())}
            aria-describedby="storefront-help"
          />
        </label>
        <button type="submit" className="primary" disabled={pending}>
          {looksLikeUrl(query) ? 'Add app' : 'Search'}
        </button>
      </form>
      <p className="muted" id="storefront-help">
        The storefront is the app’s primary country (ISO code such as US, GB, DE). Google Play URLs look like
        https://play.google.com/store/apps/details?id=com.example.app.
      </p>
      {error && (
        <p className="notice" role="alert" data-testid="add-app-error">
          {error}
        </p>
      )}
      {candidates &&
        (candidates.length === 0 ? (
          <p className="muted" role="status">
            No app of the store matches “{query}” in {country}.
          </p>
        ) : (
          <ul aria-label="Search results" data-testid="store-results" style={{ listStyle: 'none', padding: 0 }}>
            {candidates.map((candidate) => (
              <li
                key={`${candidate.store} ${candidate.storeId}`}
                className="row"
                style={{
                  justifyContent: 'space-between',
                  borderBottom: '1px solid var(--border)',
                  padding: '0.4rem 0',
                }}
              >
                <span>
                  <strong>{candidate.name}</strong>{' '}
                  <span className="muted">
                    {candidate.developer} · {formatStore(candidate.store)}
                  </span>
                </span>
                <button
                  type="button"
                  onClick={() => add(candidate.storeUrl)}
                  disabled={pending}
                  aria-label={`Add ${candidate.name}`}
                >
                  Add
                </button>
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
