import { DocsIntro } from '@/components/docs/docs-intro';
import { serverModules } from '@/app/server-modules';
import { TableScroll } from '@/components/common/table-scroll';
import { CodeBlock } from '@/components/common/code-block';

export const metadata = { title: 'Webhooks · ASO Analytics' };

const scheduleOf = (RETRY_DELAYS_SECONDS: readonly number[]) =>
  RETRY_DELAYS_SECONDS.map((seconds) =>
    seconds < 60 ? `${seconds} s` : seconds < 3600 ? `${seconds / 60} min` : `${seconds / 3600} h`,
  ).join(', ');

export default async function WebhooksDocsPage() {
  const {
    EVENT_DESCRIPTIONS,
    EVENT_TYPES,
    RETRY_DELAYS_SECONDS,
    TIMEOUT_MS,
    TOLERANCE_SECONDS,
    VERIFICATION_SNIPPETS,
  } = await serverModules();
  const schedule = scheduleOf(RETRY_DELAYS_SECONDS);
  const { node: NODE, python: PYTHON } = VERIFICATION_SNIPPETS;
  return (
    <main>
      <DocsIntro title="Webhooks">
        <p>
          When something happens to your data we send a signed <code>POST</code> to each of your webhook endpoints
          subscribed to that kind of event. The body is JSON:{' '}
          <code>{'{ "id": "evt_…", "type": "…", "createdAt": "…", "data": { … } }'}</code>.
        </p>
        <h2>Headers</h2>
        <ul>
          <li>
            <code>X-Service-Event</code>: the kind of event (below)
          </li>
          <li>
            <code>X-Service-Delivery</code>: the delivery id, the same on every retry of one event to one endpoint
          </li>
          <li>
            <code>X-Service-Signature</code>: <code>t=&lt;unix seconds&gt;,v1=&lt;hex HMAC-SHA256&gt;</code>
          </li>
        </ul>
        <h2>Kinds of event</h2>
        <p>
          An endpoint subscribes to the kinds it lists; an endpoint that lists none receives every kind, those added
          later included. The schema of each kind’s <code>data</code>, with an example, is in the <code>webhooks</code>{' '}
          section of the <a href="/api/public/v1/openapi.json">OpenAPI document</a> (shown in{' '}
          <a href="/docs/api">the API reference</a>); within v1 an event may gain members, never lose one.
        </p>
        <TableScroll label="Kinds of event">
          <table data-testid="event-kinds">
            <thead>
              <tr>
                <th>Kind</th>
                <th>Sent when</th>
              </tr>
            </thead>
            <tbody>
              {EVENT_TYPES.map((type) => (
                <tr key={type}>
                  <td>
                    <code>{type}</code>
                  </td>
                  <td>{EVENT_DESCRIPTIONS[type]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
        <h2>Verifying the signature</h2>
        <p>
          The signature is the HMAC-SHA256, keyed with your whole signing secret (<code>whsec_…</code>, as UTF-8), of
          the timestamp, a dot and the raw body: <code>&lt;t&gt;.&lt;raw body&gt;</code>, in lower-case hex. Compute it
          over the bytes you received, not over re-serialised JSON, compare in constant time, and reject timestamps more
          than {TOLERANCE_SECONDS} seconds away from now. While a secret is being rotated, both secrets sign for 24
          hours and the header carries two <code>v1=</code> values: accept the request if any of them matches. This is
          the widely used <code>t=,v1=</code> scheme, so existing verifiers work unchanged.
        </p>
        <h3>Node.js</h3>
        <CodeBlock testId="node-snippet" code={NODE} />
        <h3>Python</h3>
        <CodeBlock testId="python-snippet" code={PYTHON} />
        <h2>Retries, ordering and duplicates</h2>
        <ul>
          <li>Any 2xx answer within {TIMEOUT_MS / 1000} seconds is a success. Redirects are not followed.</li>
          <li>Otherwise the delivery is retried after {schedule} (each with up to 10 % jitter), then given up.</li>
          <li>An endpoint whose deliveries have all failed for 5 days is disabled; the dashboard shows why.</li>
          <li>
            Deliveries can arrive out of order and, rarely, more than once: use <code>X-Service-Delivery</code> to
            ignore a delivery you have already processed, and <code>createdAt</code> to order events.
          </li>
          <li>
            Answer quickly (queue the work on your side): the {TIMEOUT_MS / 1000}-second limit includes your processing.
          </li>
          <li>
            Slack (<code>hooks.slack.com</code>) and Discord incoming-webhook URLs receive a readable message instead of
            the signed envelope.
          </li>
        </ul>
      </DocsIntro>
    </main>
  );
}
