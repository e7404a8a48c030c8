import { getDashboardCaller, requirePermission } from '@/app/server-modules';
import { PlanActions, PortalButton } from '@/components/billing/plan-actions';
import { TableScroll } from '@/components/common/table-scroll';
import { formatInstant, formatNumber } from '@/components/format';
import type { BillingOverview } from '@/server/services/billing/billing';

export const metadata = { title: 'Plan & billing · ASO Analytics' };

const cap = (value: number | null) => (value === null ? 'Unlimited' : formatNumber(value));
const REASONS = {
  trial_started: 'Trial started',
  trial_ended: 'Trial ended',
  stripe: 'Subscription (Stripe)',
  operator: 'Set by the operator',
} as const;

/**
 * Where a customer asks for a plan without Stripe: a prepared mail that names the account and the plan, or the
 * deployment's page.
 */
function contactHref(contact: NonNullable<BillingOverview['contact']>, plan?: string): string {
  if (contact.kind === 'page') return contact.url;
  const subject = plan ? `Change of plan to ${plan}` : 'Change of plan';
  const body = `Account: ${contact.accountEmail}`;
  return `mailto:${contact.address}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

export default async function BillingPage({ searchParams }: { searchParams: Promise<{ checkout?: string }> }) {
  await requirePermission('billing.manage');
  const { checkout } = await searchParams;
  const caller = await getDashboardCaller();
  const overview = await caller.billing.overview();
  const current = overview.tiers.find((tier) => tier.tier === overview.plan)!;
  const labelOf = (tier: string) => overview.tiers.find((offer) => offer.tier === tier)?.label ?? tier;
  return (
    <>
      <section className="panel">
        <h1>Plan & billing</h1>
        {checkout === 'success' && (
          <p className="secret" role="status">
            Thank you: your plan changes as soon as Stripe confirms the payment, usually within seconds.
          </p>
        )}
        {checkout === 'cancelled' && (
          <p className="notice" role="status">
            Checkout was cancelled; nothing was charged.
          </p>
        )}
        <div className="row" style={{ gap: '3rem' }}>
          <div>
            <div className="muted">Plan</div>
            <div className="stat" data-testid="billing-plan">
              {current.label}
              {overview.trial ? ' (trial)' : ''}
            </div>
          </div>
          <div>
            <div className="muted">Credits this month</div>
            <div className="stat" data-testid="billing-usage">
              {current.tier === 'free'
                ? 'No API access'
                : `${formatNumber(overview.creditsUsed)} / ${overview.creditLimit === null ? 'unlimited' : formatNumber(overview.creditLimit)}`}
            </div>
          </div>
          <div>
            <div className="muted">Allowance resets</div>
            <div className="stat">{formatInstant(overview.periodEnd)}</div>
          </div>
        </div>
        {overview.trial && (
          <p data-testid="trial-notice">
            Your trial of {current.label} ends {formatInstant(overview.trial.endsAt)}, with{' '}
            {formatNumber(overview.trial.credits)} credits a month until then. Then the account moves to Free (no API
            access) unless you choose a plan; your apps and keys are kept.
          </p>
        )}
        <p className="muted">
          A change applies at once: the new allowance counts from now, and the credits already used this month stay
          used. On a smaller allowance than what is used, calls get 402 until the allowance resets.
        </p>
        {overview.billing === 'operator' ? (
          <p className="notice" data-testid="operator-billing">
            No payment is taken here: plans on this deployment are set by the team that runs it.{' '}
            {overview.contact ? (
              <>
                To change plan, <a href={contactHref(overview.contact)}>contact us</a>, or ask for a plan below.
              </>
            ) : (
              'To change plan, ask them.'
            )}
          </p>
        ) : (
          overview.portal && <PortalButton subscription={overview.subscription?.status ?? null} />
        )}
      </section>

      <section className="panel">
        <h2>Plans</h2>
        <TableScroll label="Plans">
          <table className="tiers" data-testid="tiers">
            <thead>
              <tr>
                <th scope="col">Plan</th>
                <th scope="col">Price a month</th>
                <th scope="col">API credits a month</th>
                <th scope="col">Requests a minute</th>
                <th scope="col">Tracked apps</th>
                <th scope="col">Tracked keywords</th>
                <th scope="col">Storefronts per app</th>
                <th scope="col">Competitors per app</th>
                <th scope="col">Rows per export</th>
                <th scope="col">
                  <span className="visually-hidden">Choose</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {overview.tiers.map((tier) => {
                const isCurrent = tier.tier === overview.plan;
                return (
                  <tr key={tier.tier} data-tier={tier.tier} aria-current={isCurrent ? 'true' : undefined}>
                    <th scope="row" className={isCurrent ? 'current' : undefined}>
                      {tier.label}{' '}
                      {isCurrent && <span className="badge active">{overview.trial ? 'Trial' : 'Current'}</span>}
                    </th>
                    <td>
                      {tier.price
                        ? `${tier.price.amount.toLocaleString('en-US', { style: 'currency', currency: tier.price.currency })}`
                        : 'On request'}
                    </td>
                    <td>{tier.tier === 'free' ? 'No API access' : cap(tier.monthlyCredits)}</td>
                    <td>{tier.tier === 'free' ? '—' : formatNumber(tier.requestsPerMinute)}</td>
                    <td>{cap(tier.trackedApps)}</td>
                    <td>{cap(tier.trackedKeywords)}</td>
                    <td>{cap(tier.storefrontsPerApp)}</td>
                    <td>{cap(tier.competitorsPerApp)}</td>
                    <td>{tier.tier === 'free' ? '—' : cap(tier.exportRows)}</td>
                    <td>
                      {overview.billing === 'stripe' && tier.checkout && (!isCurrent || overview.trial) && (
                        <PlanActions tier={tier.tier} label={tier.label} />
                      )}
                      {overview.contact && !isCurrent && (
                        <a className="button" href={contactHref(overview.contact, tier.label)}>
                          Ask for {tier.label}
                        </a>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
        <p className="muted">
          Enterprise: unlimited credits and custom caps, agreed with us and set by the operator. Prices exclude tax.
        </p>
      </section>

      {overview.history.length > 0 && (
        <section className="panel">
          <h2>Plan history</h2>
          <TableScroll label="Plan history">
            <table data-testid="plan-history">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Change</th>
                  <th scope="col">Why</th>
                </tr>
              </thead>
              <tbody>
                {overview.history.map((change) => (
                  <tr key={`${change.changedAt}-${change.to}`}>
                    <td>{formatInstant(change.changedAt)}</td>
                    <td>{change.from ? `${labelOf(change.from)} → ${labelOf(change.to)}` : labelOf(change.to)}</td>
                    <td>{REASONS[change.reason]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </section>
      )}
    </>
  );
}
