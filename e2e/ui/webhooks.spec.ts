// Settings → Webhooks in Chromium with a real receiver on loopback: add an endpoint, send a test event, see the
// delivery in the log, redeliver it.
import { expect, test } from '@playwright/test';
import { verifySignature } from '../../src/server/services/webhooks/signing';
import { newAccount, signInAs, startWebhookReceiver, openEndpointForm } from '../helpers';

test('add an endpoint, send a test event, see it delivered, redeliver it', async ({ page }) => {
  const receiver = await startWebhookReceiver();
  const { received } = receiver;
  const url = receiver.url('/hooks/aso');
  try {
    const { email, password } = await newAccount('pro');
    await signInAs(page, email, password);
    await page.goto('/apps');
    await page.getByRole('link', { name: 'Webhooks' }).click();

    const form = await openEndpointForm(page);
    await form.getByLabel('Endpoint URL (HTTPS)').fill(url);
    await form.getByLabel('Description').fill('e2e receiver');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page.getByTestId('webhook-secret')).toContainText('you won’t see this secret again');
    const secret = (await page.getByTestId('webhook-secret-value').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);

    const endpoint = page.locator(`[data-endpoint-url="${url}"]`);
    await expect(endpoint.getByTestId('webhook-status')).toHaveText('enabled');
    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => received.length).toBe(1);
    const [first] = received;
    expect(first!.headers['x-service-event']).toBe('webhook.test');
    expect(verifySignature(String(first!.headers['x-service-signature']), first!.body, secret)).toMatchObject({
      ok: true,
    });
    const deliveryId = String(first!.headers['x-service-delivery']);

    await expect(async () => {
      await page.reload();
      await expect(page.locator(`tr[data-delivery-id="${deliveryId}"]`).getByTestId('delivery-status')).toHaveText(
        'succeeded',
        { timeout: 1_000 },
      );
    }).toPass({ timeout: 30_000 });
    const row = page.locator(`tr[data-delivery-id="${deliveryId}"]`);
    await expect(row.getByTestId('delivery-attempt')).toHaveCount(1);
    await expect(row.getByTestId('delivery-attempt').first()).toContainText('200');

    await row.getByRole('button', { name: 'Redeliver' }).click();
    await expect.poll(() => received.length).toBe(2);
    expect(received[1]!.headers['x-service-delivery']).toBe(deliveryId);
    expect(received[1]!.body).toBe(first!.body);
    await expect(async () => {
      await page.reload();
      await expect(page.locator(`tr[data-delivery-id="${deliveryId}"]`).getByTestId('delivery-attempt')).toHaveCount(
        2,
        { timeout: 1_000 },
      );
    }).toPass({ timeout: 30_000 });
  } finally {
    await receiver.close();
  }
});
