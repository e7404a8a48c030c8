'use client';
// Settings → Webhooks: endpoints (add, secret shown once, rotate, enable/disable, delete, send a test event) and
// each endpoint's deliveries with every attempt and a Redeliver button. The log reads itself again while a delivery
// is on its way.
import Link from 'next/link';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog, focusable } from '@/components/common/confirm-dialog';
import { DialogActions, FormDialog } from '@/components/common/form-dialog';
import { NewSecret } from '@/components/common/new-secret';
import { TableScroll } from '@/components/common/table-scroll';
import { formatInstant } from '@/components/format';
import { trpc } from '@/components/trpc';
import { useAction } from '@/components/use-action';
import { deliveryState } from './delivery-state';

type Endpoint = Awaited<ReturnType<typeof trpc.webhooks.list.query>>[number];
type Delivery = Awaited<ReturnType<typeof trpc.webhooks.deliveries.query>>[number];

interface Props {
  endpoints: Endpoint[];
  deliveries: Record<string, Delivery[]>;
  eventKinds: { type: string; description: string }[];
  /** False in test mode: the page then lists the sandbox's endpoints. */
  livemode: boolean;
}

/**
 * Each read of the page is one dashboard call per endpoint and two more, against 600 a minute per user: every 3
 * seconds keeps 16 endpoints (the most an account has) well within it.
 */
const POLL_MS = 3_000;
/** Polling stops after this long, so that a tab left open does not read the log forever. */
const POLL_FOR_MS = 120_000;

/** On its way within the next minute: queued by a click, or its next attempt is due. */
function inFlight(delivery: Delivery, now: number): boolean {
  if (delivery.requested) return true;
  if (delivery.status !== 'pending') return false;
  return delivery.nextAttemptAt === null || new Date(delivery.nextAttemptAt).getTime() - now < 60_000;
}

function usePollWhileInFlight(deliveries: Record<string, Delivery[]>, refresh: () => void) {
  const busy = Object.values(deliveries).some((list) => list.some((delivery) => inFlight(delivery, Date.now())));
  const since = useRef<number | null>(null);
  useEffect(() => {
    if (!busy) {
      since.current = null;
      return;
    }
    since.current ??= Date.now();
    if (Date.now() - since.current > POLL_FOR_MS) return;
    const timer = setTimeout(() => {
      if (document.visibilityState === 'visible') refresh();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [busy, deliveries, refresh]);
  return busy;
}

type Confirming = { kind: 'rotate' | 'delete'; endpoint: Endpoint } | null;

export function WebhooksPanel({ endpoints, deliveries, eventKinds, livemode }: Props) {
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<{ value: string; note: string } | null>(null);
  const [notices, setNotices] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState<Confirming>(null);
  const { run, pending, error, router } = useAction();
  const secretBox = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // The dialog's state is cleared as it closes; where focus goes next depends on what it did.
  const confirmed = useRef<'rotate' | 'delete' | null>(null);
  const polling = usePollWhileInFlight(deliveries, router.refresh);

  const noticeFor = (endpointId: string, text: string) => setNotices((current) => ({ ...current, [endpointId]: text }));

  async function onCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    await run(async () => {
      const created = await trpc.webhooks.create.mutate({
        url: String(data.get('url')),
        description: String(data.get('description') || '') || undefined,
        eventTypes: data.getAll('eventTypes').map(String) as never,
      });
      setAdding(false);
      setSecret({ value: created.secret, note: `Signing secret of ${created.endpoint.url}.` });
      toast.success('Endpoint added');
    });
  }

  async function onConfirm() {
    if (!confirming) return;
    const { kind, endpoint } = confirming;
    confirmed.current = kind;
    if (kind === 'rotate') {
      const rotated = await trpc.webhooks.rotateSecret.mutate({ endpointId: endpoint.id });
      setSecret({
        value: rotated.secret,
        note: `New signing secret of ${endpoint.url}; the previous one also signs until ${formatInstant(rotated.previousSecretUntil)}.`,
      });
      toast.success('Signing secret rotated');
    } else {
      await trpc.webhooks.delete.mutate({ endpointId: endpoint.id });
      toast.success(`Endpoint ${endpoint.url} deleted`);
    }
    router.refresh();
  }

  return (
    <>
      <section className="panel" aria-labelledby="webhooks-heading">
        <h1 id="webhooks-heading" ref={heading} tabIndex={-1}>
          Webhooks
        </h1>
        <p className="muted">
          We send a signed POST to each endpoint when an event it subscribes to happens. See{' '}
          <Link href="/docs/webhooks">how to verify the signature</Link>.
        </p>
        {!livemode && (
          <p className="notice" data-testid="webhooks-test-mode">
            Test endpoints: these receive your test sandbox’s events only, with <code>livemode: false</code>, never a
            live one. Your live endpoints are listed with Test mode off.
          </p>
        )}
        <div className="row">
          <FormDialog
            open={adding}
            onOpenChange={setAdding}
            openLabel="New endpoint"
            title="Add a webhook endpoint"
            focusAfter={() => secretBox.current}
            testId="add-endpoint-dialog"
          >
            <form className="stack" onSubmit={onCreate} aria-label="Add endpoint">
              <div className="row">
                <label style={{ flex: '2 1 260px' }}>
                  Endpoint URL (HTTPS)
                  <input name="url" required placeholder="https://example.com/webhooks/aso" />
                </label>
                <label style={{ flex: '1 1 180px' }}>
                  Description
                  <input name="description" maxLength={200} />
                </label>
              </div>
              <fieldset style={{ border: 'none', padding: 0, margin: 0 }}>
                <legend>Events</legend>
                <p className="muted" id="event-kinds-hint" style={{ margin: '0.3rem 0 0.6rem' }}>
                  Tick the kinds this endpoint receives. Leave all unticked to receive every kind, including kinds added
                  later.
                </p>
                <div className="event-kinds" aria-describedby="event-kinds-hint">
                  {eventKinds.map((kind) => (
                    <div key={kind.type} className="event-kind">
                      <input
                        type="checkbox"
                        name="eventTypes"
                        value={kind.type}
                        id={`kind-${kind.type}`}
                        aria-describedby={`kind-${kind.type}-about`}
                      />
                      <span>
                        <label htmlFor={`kind-${kind.type}`}>
                          <code>{kind.type}</code>
                        </label>
                        <span className="muted" id={`kind-${kind.type}-about`}>
                          {' '}
                          {kind.description}
                        </span>
                      </span>
                    </div>
                  ))}
                </div>
              </fieldset>
              <DialogActions error={error} pending={pending} submit="Add endpoint" />
            </form>
          </FormDialog>
        </div>
        {!adding && error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {secret && (
          <NewSecret
            title={secret.note}
            secret={secret.value}
            what="Signing secret"
            onSaved={() => {
              setSecret(null);
              heading.current?.focus();
            }}
            boxRef={secretBox}
            testId="webhook-secret"
            valueTestId="webhook-secret-value"
          />
        )}
      </section>

      {endpoints.length === 0 && (
        <section className="panel empty" data-testid="endpoints-empty">
          <p>
            <strong>No endpoints yet.</strong>
          </p>
          <p className="muted">
            Add the HTTPS address of a receiver with New endpoint, then send it a test event. A Slack or Discord
            incoming-webhook URL works too: it receives readable messages.
          </p>
        </section>
      )}

      {endpoints.map((endpoint) => (
        <section
          className="panel"
          key={endpoint.id}
          data-testid="webhook-endpoint"
          data-endpoint-url={endpoint.url}
          aria-label={`Endpoint ${endpoint.url}`}
        >
          <div className="row" style={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
            <div style={{ minWidth: 0 }}>
              <h2 style={{ margin: 0, fontSize: '1rem' }} className="mono">
                {endpoint.url}
              </h2>
              <p className="muted" style={{ margin: '0.3rem 0' }}>
                {endpoint.description ?? 'No description'} ·{' '}
                {endpoint.eventTypes.length ? endpoint.eventTypes.join(', ') : 'every kind of event'} · secret{' '}
                <span className="mono">{endpoint.secretHint}</span>
                {endpoint.rotatingUntil &&
                  ` (previous secret also signs until ${formatInstant(endpoint.rotatingUntil)})`}
              </p>
            </div>
            <span className={`badge ${endpoint.enabled ? 'active' : 'revoked'}`} data-testid="webhook-status">
              {endpoint.enabled ? 'enabled' : 'disabled'}
            </span>
          </div>
          {endpoint.disabledReason && <p className="notice">{endpoint.disabledReason}</p>}
          <div className="row">
            <button
              type="button"
              disabled={pending || !endpoint.enabled}
              onClick={() =>
                run(async () => {
                  await trpc.webhooks.sendTest.mutate({ endpointId: endpoint.id });
                  noticeFor(endpoint.id, 'Test event sent: its delivery appears below within a few seconds.');
                  toast.success('Test event sent');
                })
              }
            >
              Send test event
            </button>
            <button type="button" disabled={pending} onClick={() => setConfirming({ kind: 'rotate', endpoint })}>
              Rotate secret
            </button>
            <button
              type="button"
              disabled={pending}
              onClick={() =>
                run(async () => {
                  await trpc.webhooks.setEnabled.mutate({ endpointId: endpoint.id, enabled: !endpoint.enabled });
                  toast.success(endpoint.enabled ? 'Endpoint disabled' : 'Endpoint enabled');
                })
              }
            >
              {endpoint.enabled ? 'Disable' : 'Enable'}
            </button>
            <button type="button" disabled={pending} onClick={() => setConfirming({ kind: 'delete', endpoint })}>
              Delete
            </button>
          </div>
          <p role="status" className="muted" data-testid="endpoint-notice">
            {notices[endpoint.id] ?? ''}
          </p>
          <h3>
            Deliveries{' '}
            {polling && (
              <span className="muted" style={{ fontWeight: 'normal', fontSize: '0.85rem' }}>
                (updating…)
              </span>
            )}
          </h3>
          {(deliveries[endpoint.id] ?? []).length === 0 ? (
            <p className="muted">No deliveries yet: send a test event to see one.</p>
          ) : (
            <TableScroll label={`Deliveries to ${endpoint.url}`}>
              <table data-testid="webhook-deliveries">
                <thead>
                  <tr>
                    <th>Event</th>
                    <th>Delivery id</th>
                    <th>Status</th>
                    <th>Attempts</th>
                    <th>Next retry</th>
                    <th>
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {(deliveries[endpoint.id] ?? []).map((delivery) => (
                    <tr key={delivery.id} data-delivery-id={delivery.id}>
                      <td>
                        <code>{delivery.eventType}</code>
                        <div className="muted">{formatInstant(delivery.createdAt)}</div>
                      </td>
                      <td className="mono" style={{ fontSize: '0.8rem' }}>
                        {delivery.id}
                      </td>
                      <td>
                        <span className={`badge ${deliveryState(delivery).badge}`} data-testid="delivery-status">
                          {deliveryState(delivery).text}
                        </span>
                      </td>
                      <td>
                        {delivery.attempts.map((attempt, index) => (
                          <div key={index} data-testid="delivery-attempt">
                            {formatInstant(attempt.attemptedAt)} · <strong>{attempt.statusCode ?? 'no answer'}</strong>{' '}
                            · {attempt.durationMs} ms
                            {(attempt.error ?? attempt.responseExcerpt) && (
                              <div className="muted mono" style={{ fontSize: '0.8rem' }}>
                                {(attempt.error ?? attempt.responseExcerpt ?? '').slice(0, 120)}
                              </div>
                            )}
                          </div>
                        ))}
                      </td>
                      <td>{delivery.nextAttemptAt ? formatInstant(delivery.nextAttemptAt) : '—'}</td>
                      <td>
                        <button
                          type="button"
                          disabled={pending}
                          aria-label={`Redeliver ${delivery.eventType} ${delivery.id}`}
                          onClick={() =>
                            run(async () => {
                              await trpc.webhooks.redeliver.mutate({ deliveryId: delivery.id });
                              noticeFor(endpoint.id, 'Redelivery queued.');
                              toast.success('Redelivery queued');
                            })
                          }
                        >
                          Redeliver
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </section>
      ))}

      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null);
        }}
        testId="endpoint-dialog"
        title={
          confirming?.kind === 'rotate'
            ? 'Rotate the signing secret?'
            : `Delete the endpoint ${confirming?.endpoint.url ?? ''}?`
        }
        tone={confirming?.kind === 'rotate' ? 'primary' : 'danger'}
        confirmLabel={confirming?.kind === 'rotate' ? 'Rotate secret' : 'Delete endpoint'}
        focusAfter={() => (confirmed.current === 'rotate' ? secretBox.current : focusable(heading.current))}
        description={
          confirming?.kind === 'rotate' ? (
            <p>
              A new signing secret is issued and shown once. The current secret keeps signing beside it for 24 hours, so
              you can deploy the new one.
            </p>
          ) : (
            <p>Its delivery log goes with it and no more events are sent to it. This cannot be undone.</p>
          )
        }
        onConfirm={onConfirm}
      />
    </>
  );
}
