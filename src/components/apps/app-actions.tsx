'use client';
// What the app page changes: track keywords, track the app in one more storefront, and remove the app, a keyword or a
// competitor (each confirmed, saying what is lost).
import { usePathname, useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ConfirmButton } from '@/components/common/confirm-button';
import { trpc } from '@/components/trpc';
import { useAction } from '@/components/use-action';
import { useShownStorefront } from './storefront-select';
import { formatCount } from '@/components/format';

export function RemoveAppButton({ appId, name }: { appId: string; name: string }) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Remove app"
      title={`Remove ${name}?`}
      testId="remove-app"
      done={`${name} removed`}
      consequence={
        <>
          Its tracked keywords, competitors, rank and rating history, reviews and listing history are deleted, its daily
          refresh stops and no more events about it are sent. This cannot be undone.
        </>
      }
      onConfirm={async () => {
        await trpc.apps.remove.mutate({ id: appId });
        router.push('/apps');
      }}
    />
  );
}

export function RemoveKeywordButton({ appId, keywordId, term }: { appId: string; keywordId: string; term: string }) {
  return (
    <ConfirmButton
      label="Remove"
      ariaLabel={`Remove keyword ${term}`}
      title={`Stop tracking “${term}”?`}
      done={`“${term}” is no longer tracked`}
      consequence="It leaves the keyword list, rank change events for it stop, and it no longer counts toward the plan’s keyword cap. Its past ranks stay available while the app ranks for it."
      onConfirm={async () => {
        await trpc.keywords.remove.mutate({ id: appId, keywordId });
      }}
    />
  );
}

export function RemoveCompetitorButton({
  appId,
  competitorId,
  name,
}: {
  appId: string;
  competitorId: string;
  name: string;
}) {
  return (
    <ConfirmButton
      label="Remove"
      ariaLabel={`Remove competitor ${name}`}
      title={`Stop following ${name}?`}
      done={`${name} removed from competitors`}
      consequence="It leaves this app’s competitors; add it again at any time with its store URL."
      onConfirm={async () => {
        await trpc.competitors.remove.mutate({ id: appId, competitorId });
      }}
    />
  );
}

export function AddStorefrontForm({ appId }: { appId: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const { run, pending, error } = useAction();
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const country = String(new FormData(form).get('country')).toUpperCase();
    await run(async () => {
      // Observed before it answers (the store's time): the page then shows the new storefront.
      await trpc.apps.addStorefront.mutate({ id: appId, country });
      toast.success(`Now tracked in ${country}`);
      form.reset();
      router.push(`${pathname}?country=${country}`, { scroll: false });
      router.refresh();
    });
  }
  return (
    <form className="row" onSubmit={onSubmit} aria-label="Add storefront">
      <label>
        Track in storefront
        <input name="country" required pattern="[A-Za-z]{2}" maxLength={2} size={3} placeholder="GB" />
      </label>
      <button type="submit" disabled={pending}>
        {pending ? 'Observing…' : 'Add storefront'}
      </button>
      {error && (
        <span className="notice" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}

/** Stops tracking the app in the storefront the page shows; none for its primary one. */
export function RemoveStorefrontButton({
  appId,
  storefronts,
  primary,
}: {
  appId: string;
  storefronts: string[];
  primary: string;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const country = useShownStorefront(storefronts, primary);
  if (country === primary) return null;
  return (
    <ConfirmButton
      label={`Stop tracking ${country}`}
      title={`Stop tracking the app in ${country}?`}
      testId="remove-storefront"
      done={`No longer tracked in ${country}`}
      consequence={
        <>
          Its daily observation there stops, its keywords tracked in {country} stop being tracked, and it frees one of
          the plan’s storefronts. Its history there stays, and shows again if you track {country} again.
        </>
      }
      onConfirm={async () => {
        await trpc.apps.removeStorefront.mutate({ id: appId, country });
        router.push(pathname, { scroll: false });
        router.refresh();
      }}
    />
  );
}

export function TrackKeywordsForm({ appId, country }: { appId: string; country: string }) {
  const [added, setAdded] = useState<string | null>(null);
  const { run, pending, error } = useAction(() => setAdded(null));
  const message = error ? { text: error, error: true } : added ? { text: added, error: false } : null;
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const terms = String(new FormData(form).get('terms'))
      .split(/[,\n]/)
      .map((term) => term.trim())
      .filter(Boolean);
    await run(async () => {
      const result = await trpc.keywords.add.mutate({ id: appId, terms, country });
      form.reset();
      setAdded(
        `${result.added.length} added${result.alreadyTracked.length ? `, ${result.alreadyTracked.length} already tracked` : ''}.`,
      );
      toast.success(`${formatCount(result.added.length, 'keyword')} added`);
    });
  }
  return (
    <form className="row" onSubmit={onSubmit} aria-label="Track keywords" style={{ alignItems: 'flex-end' }}>
      <label style={{ flex: '1 1 320px' }}>
        Track keywords in {country} (separate them with commas)
        <input
          name="terms"
          required
          maxLength={5000}
          placeholder="meditation, sleep sounds"
          style={{ width: '100%' }}
        />
      </label>
      <button type="submit" disabled={pending}>
        Track
      </button>
      {message && (
        <span
          className={message.error ? 'notice' : 'muted'}
          role={message.error ? 'alert' : 'status'}
          data-testid="track-keywords-result"
        >
          {message.text}
        </span>
      )}
    </form>
  );
}
