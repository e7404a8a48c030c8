'use client';
// A key's restrictions as form fields (the create form and the Restrict dialog share them): its apps, its client
// addresses and its monthly credit budget. The server checks every value (src/server/services/api-keys/restrictions.ts);
// these fields only shape what is sent.
import { formatStore } from '@/components/format';
import type { ApiKeyOutput } from '@/server/api/routers/api-keys/api-keys.schema';

export interface AppChoice {
  id: string;
  name: string;
  store: 'app_store' | 'google_play';
}

/** An app named with its store: the same app is often on both, under one name. */
function appChoiceLabel(app: AppChoice): string {
  return `${app.name} (${formatStore(app.store)})`;
}

export interface RestrictionDraft {
  allApps: boolean;
  appIds: string[];
  anyAddress: boolean;
  /** One address or CIDR range per line. */
  cidrs: string;
  /** Whole credits, or empty for none. */
  budget: string;
}

export const NO_RESTRICTIONS: RestrictionDraft = { allApps: true, appIds: [], anyAddress: true, cidrs: '', budget: '' };

export function draftOf(restrictions: ApiKeyOutput['restrictions']): RestrictionDraft {
  return {
    allApps: restrictions.appIds === null,
    appIds: restrictions.appIds ?? [],
    anyAddress: restrictions.allowedCidrs.length === 0,
    cidrs: restrictions.allowedCidrs.join('\n'),
    budget: restrictions.monthlyBudget === null ? '' : String(restrictions.monthlyBudget),
  };
}

/** What the API takes: null for "all apps", "any address", "no budget". */
export function restrictionsOf(draft: RestrictionDraft) {
  return {
    appIds: draft.allApps ? null : draft.appIds,
    allowedCidrs: draft.anyAddress
      ? null
      : draft.cidrs
          .split(/[\n,]/)
          .map((line) => line.trim())
          .filter(Boolean),
    monthlyBudget: draft.budget.trim() === '' ? null : Number(draft.budget),
  };
}

/** The restrictions in a few words, for the keys' and connected apps' tables. */
export function describeRestrictions(
  key: Pick<ApiKeyOutput, 'restrictions' | 'spentThisMonth'>,
  apps: AppChoice[],
): string[] {
  const { appIds, allowedCidrs, monthlyBudget } = key.restrictions;
  const names = (appIds ?? []).map((id) => {
    const app = apps.find((choice) => choice.id === id);
    return app ? appChoiceLabel(app) : 'an app no longer tracked';
  });
  return [
    appIds === null
      ? 'All apps'
      : names.length <= 2
        ? names.join(', ')
        : `${names.slice(0, 2).join(', ')} and ${names.length - 2} more`,
    allowedCidrs.length ? `From ${allowedCidrs.join(', ')}` : 'Any address',
    monthlyBudget === null
      ? 'No budget'
      : `${key.spentThisMonth.toLocaleString('en-US')} of ${monthlyBudget.toLocaleString('en-US')} credits this month`,
  ];
}

interface Props {
  draft: RestrictionDraft;
  onChange: (draft: RestrictionDraft) => void;
  apps: AppChoice[];
  /** Distinguishes the ids of two sets of fields on one page. */
  idPrefix: string;
  disabled?: boolean;
}

export function RestrictionFields({ draft, onChange, apps, idPrefix, disabled }: Props) {
  const set = (change: Partial<RestrictionDraft>) => onChange({ ...draft, ...change });
  return (
    <div className="stack" data-testid={`${idPrefix}-restrictions`}>
      <fieldset disabled={disabled}>
        <legend>Apps</legend>
        <label className="inline">
          <input
            type="radio"
            name={`${idPrefix}-apps`}
            checked={draft.allApps}
            onChange={() => set({ allApps: true })}
          />{' '}
          All apps, those added later included
        </label>
        <label className="inline">
          <input
            type="radio"
            name={`${idPrefix}-apps`}
            checked={!draft.allApps}
            onChange={() => set({ allApps: false })}
          />{' '}
          Only these apps
        </label>
        {!draft.allApps && (
          <div className="stack" role="group" aria-label="Apps the key reaches">
            {apps.length === 0 && <p className="muted">No apps tracked yet.</p>}
            {apps.map((app) => (
              <label key={app.id} className="inline">
                <input
                  type="checkbox"
                  checked={draft.appIds.includes(app.id)}
                  onChange={(event) =>
                    set({
                      appIds: event.target.checked
                        ? [...draft.appIds, app.id]
                        : draft.appIds.filter((id) => id !== app.id),
                    })
                  }
                />{' '}
                {app.name} <span className="muted">({formatStore(app.store)})</span>
              </label>
            ))}
            <p className="muted">Apps added later stay out of this key’s reach until you add them here.</p>
          </div>
        )}
      </fieldset>
      <fieldset disabled={disabled}>
        <legend>Client addresses</legend>
        <label className="inline">
          <input
            type="radio"
            name={`${idPrefix}-addresses`}
            checked={draft.anyAddress}
            onChange={() => set({ anyAddress: true })}
          />{' '}
          Any address
        </label>
        <label className="inline">
          <input
            type="radio"
            name={`${idPrefix}-addresses`}
            checked={!draft.anyAddress}
            onChange={() => set({ anyAddress: false })}
          />{' '}
          Only these addresses
        </label>
        {!draft.anyAddress && (
          <label>
            IPv4 or IPv6 addresses and CIDR ranges, one per line
            <textarea
              rows={3}
              value={draft.cidrs}
              onChange={(event) => set({ cidrs: event.target.value })}
              placeholder={'203.0.113.0/24\n2001:db8::/32'}
            />
          </label>
        )}
      </fieldset>
      <label>
        Monthly credit budget (optional)
        <input
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          value={draft.budget}
          onChange={(event) => set({ budget: event.target.value })}
          disabled={disabled}
          placeholder="No budget"
        />
      </label>
    </div>
  );
}
