// Settings → API access shows what GET /usage answers, after a few calls.
import { expect, test } from '@playwright/test';
import { admin, API, bearer, createKey, newAccount, signInAs } from '../helpers';

test('the usage panel shows the numbers of GET /usage', async ({ page, request }) => {
  const { email, password, session } = await newAccount('pro');
  const appId = await admin(
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/sleep-well/id1500000002',
  );
  const key = await createKey(session, 'read-only', 'usage panel key');
  for (const path of [
    `/apps/${appId}`,
    `/apps/${appId}`,
    `/apps/${appId}/keywords/research?term=sleep`,
    `/apps/${appId}/opportunities`,
  ]) {
    expect((await request.get(`${API}${path}`, { headers: bearer(key) })).status()).toBe(200);
  }
  const usage = await (await request.get(`${API}/usage`, { headers: bearer(key) })).json();
  expect(usage).toMatchObject({ used: 12, remaining: 4988, limit: 5000 });

  await signInAs(page, email, password);
  await page.goto('/settings/api');
  const panel = page.getByTestId('usage-panel');
  await expect(panel.getByTestId('usage-used')).toHaveText(usage.used.toLocaleString('en-US'));
  await expect(panel.getByTestId('usage-remaining')).toHaveText(usage.remaining.toLocaleString('en-US'));
  await expect(panel.getByTestId('usage-reset')).toHaveText(`${usage.periodEnd.slice(0, 10)} 00:00 UTC`);
  await expect(panel.getByRole('progressbar', { name: 'Credits used' })).toHaveAttribute(
    'aria-valuenow',
    String(usage.used),
  );
  const endpointRows = panel.getByTestId('usage-by-endpoint').locator('tbody tr');
  await expect(endpointRows).toHaveCount(usage.byEndpoint.length);
  for (const [index, row] of usage.byEndpoint.entries()) {
    await expect(endpointRows.nth(index)).toHaveText(`${row.endpoint}${row.calls}${row.credits}`);
  }
  const keyRows = panel.getByTestId('usage-by-key').locator('tbody tr');
  await expect(keyRows).toHaveCount(1);
  await expect(keyRows.first()).toContainText('usage panel key');
  await expect(keyRows.first()).toContainText(String(usage.byKey[0].credits));
  await expect(panel.getByTestId('daily-credits-chart').locator('svg.recharts-surface')).toBeVisible();

  // The chart's filters: the month in all, then one endpoint; the axis reads with separators, never cut.
  const explorer = panel.getByTestId('usage-explorer');
  await expect(explorer.getByTestId('usage-explorer-total')).toContainText(`${usage.used} credits`);
  const research = usage.byEndpoint.find((row: { endpoint: string }) => row.endpoint.includes('research'))!;
  await explorer.getByTestId('usage-endpoint-filter').selectOption(research.endpoint);
  await expect(explorer.getByTestId('usage-explorer-total')).toContainText(`${research.credits} credits`);
  await explorer.getByTestId('usage-endpoint-filter').selectOption('all');

  // The month's ledger as CSV: one row per day, endpoint and key, adding up to GET /usage.
  const download = page.waitForEvent('download');
  await explorer.getByTestId('usage-csv').click();
  const csv = await (await download).createReadStream().then(async (stream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  });
  const [header, ...lines] = csv.trimEnd().split('\r\n');
  expect(header).toBe('date,endpoint,keyId,keyName,key,calls,credits');
  expect(lines.reduce((total, line) => total + Number(line.split(',').at(-1)), 0)).toBe(usage.used);
});
