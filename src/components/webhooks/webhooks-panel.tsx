'use client';
// Settings → Webhooks: endpoints (add, secret shown once, rotate, enable/disable, delete, send a test event) and
// each endpoint's deliveries with every attempt and a Redeliver button.
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { formatInstant } from '@/components/format';
import { trpc } from '@/components/trpc';
import { useAction } from '@/components/use-action';

type Endpoint = Awaited<ReturnType<typeof trpc.webhooks.list.query>>[number];
type Delivery = Awaited<ReturnType<typeof trpc.webhooks.deliveries.query>>[number];

interface Props {
  endpoints: Endpoint[];
  deliveries: Record<string, Delivery[]>;
  eventTypes: string[];
}

export function WebhooksPanel({ endpoints, deliveries, eventTypes }: Props) {
  const [secret, setSecret] = useState<{ value: string; note: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { run, pending, error, router } = useAction(() => setNotice(null));

  async function onCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    await run(async () => {
      const created = await trpc.webhooks.create.mutate({
        url: String(data.get('url')),
        description: String(data.get('description') || '') || undefined,
        eventTypes: data.getAll('eventTypes').map(String) as never,
      });
      setSecret({ value: created.secret, note: `Signing secret of ${created.endpoint.url}.` });
      form.reset();
    });
  }

  return (
    <>
      <section className="panel">
        <h2>Webhooks</h2>
        <p className="muted">
          We send a signed POST to each endpoint when an event it subscribes to happens. See <Link href="/docs/webhooks">how to verify the signature</Link>.
        </p>
        <form className="stack" onSubmit={onCreate} aria-label="Add endpoint">
          <div className="row">
            <label style={{ flex: 2 }}>
              Endpoint URL (HTTPS)
              <input name="url" required placeholder="https://example.com/webhooks/aso" />
            </label>
            <label style={{ flex: 1 }}>
              Description
              <input name="description" maxLength={200} />
            </label>
          </div>
          <fieldset style={{ border: 'none', padding: 0 }}>
            <legend className="muted">Events (none ticked: all events)</legend>
            <div className="row">
              {eventTypes.map((type) => (
                <label key={type} style={{ flexDirection: 'row', alignItems: 'center', gap: '0.3rem' }}>
                  <input type="checkbox" name="eventTypes" value={type} /> <code>{type}</code>
                </label>
              ))}
            </div>
          </fieldset>
          <div>
            <button className="primary" type="submit" disabled={pending}>Add endpoint</button>
          </div>
        </form>
        {error && <p className="error" role="alert">{error}</p>}
        {notice && <p role="status">{notice}</p>}
        {secret && (
          <div className="secret" data-testid="webhook-secret" role="status">
            <strong>{secret.note}</strong>
            <code data-testid="webhook-secret-value">{secret.value}</code>
            <p><strong>Copy it now: you won’t see this secret again.</strong></p>
            <div className="row">
              <button type="button" onClick={() => navigator.clipboard.writeText(secret.value)}>Copy</button>
              <button type="button" onClick={() => setSecret(null)}>I have saved it</button>
            </div>
          </div>
        )}
      </section>

      {endpoints.map((endpoint) => (
        <section className="panel" key={endpoint.id} data-testid="webhook-endpoint" data-endpoint-url={endpoint.url}>
          <div className="row" style={{ justifyContent: 'space-between' }}>
            <div>
              <h3 style={{ margin: 0 }} className="mono">{endpoint.url}</h3>
              <p className="muted" style={{ margin: '0.3rem 0' }}>
                {endpoint.description ?? 'No description'} · {endpoint.eventTypes.length ? endpoint.eventTypes.join(', ') : 'all events'} · secret{' '}
                <span className="mono">{endpoint.secretHint}</span>
                {endpoint.rotatingUntil && ` (previous secret also signs until ${formatInstant(endpoint.rotatingUntil)})`}
              </p>
            </div>
            <span className={`badge ${endpoint.enabled ? 'active' : 'revoked'}`} data-testid="webhook-status">{endpoint.enabled ? 'enabled' : 'disabled'}</span>
          </div>
          {endpoint.disabledReason && <p className="notice">{endpoint.disabledReason}</p>}
          <div className="row">
            <button type="button" disabled={pending || !endpoint.enabled} onClick={() => run(async () => {
              await trpc.webhooks.sendTest.mutate({ endpointId: endpoint.id });
              setNotice('Test event sent: it appears below within a few seconds (Refresh).');
            })}>Send test event</button>
            <button type="button" disabled={pending} onClick={() => run(async () => {
              const rotated = await trpc.webhooks.rotateSecret.mutate({ endpointId: endpoint.id });
              setSecret({ value: rotated.secret, note: `New signing secret of ${endpoint.url}; the previous one also signs until ${formatInstant(rotated.previousSecretUntil)}.` });
            })}>Rotate secret</button>
            <button type="button" disabled={pending} onClick={() => run(async () => {
              await trpc.webhooks.setEnabled.mutate({ endpointId: endpoint.id, enabled: !endpoint.enabled });
            })}>{endpoint.enabled ? 'Disable' : 'Enable'}</button>
            <button type="button" className="danger" disabled={pending} onClick={() => {
              if (window.confirm(`Delete the endpoint ${endpoint.url} and its delivery log?`)) void run(async () => {
                await trpc.webhooks.delete.mutate({ endpointId: endpoint.id });
              });
            }}>Delete</button>
            <button type="button" onClick={() => router.refresh()}>Refresh</button>
          </div>
          <h4>Deliveries</h4>
          {(deliveries[endpoint.id] ?? []).length === 0 ? (
            <p className="muted">No deliveries yet.</p>
          ) : (
            <table data-testid="webhook-deliveries">
              <thead>
                <tr><th>Event</th><th>Delivery id</th><th>Status</th><th>Attempts</th><th>Next retry</th><th /></tr>
              </thead>
              <tbody>
                {(deliveries[endpoint.id] ?? []).map((delivery) => (
                  <tr key={delivery.id} data-delivery-id={delivery.id}>
                    <td><code>{delivery.eventType}</code><div className="muted">{formatInstant(delivery.createdAt)}</div></td>
                    <td className="mono" style={{ fontSize: '0.8rem' }}>{delivery.id}</td>
                    <td data-testid="delivery-status">{delivery.requested ? 'queued' : delivery.status}</td>
                    <td>
                      {delivery.attempts.map((attempt, index) => (
                        <div key={index} data-testid="delivery-attempt">
                          {formatInstant(attempt.attemptedAt)} · <strong>{attempt.statusCode ?? 'no answer'}</strong> · {attempt.durationMs} ms
                          {(attempt.error ?? attempt.responseExcerpt) && <div className="muted mono" style={{ fontSize: '0.8rem' }}>{(attempt.error ?? attempt.responseExcerpt ?? '').slice(0, 120)}</div>}
                        </div>
                      ))}
                    </td>
                    <td>{delivery.nextAttemptAt ? formatInstant(delivery.nextAttemptAt) : '—'}</td>
                    <td>
                      <button type="button" disabled={pending} onClick={() => run(async () => {
                        await trpc.webhooks.redeliver.mutate({ deliveryId: delivery.id });
                        setNotice('Redelivery queued.');
                      })}>Redeliver</button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ))}
    </>
  );
}
