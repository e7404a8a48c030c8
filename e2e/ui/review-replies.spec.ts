// Issue 67 in Chromium, against the stores' stand-ins (e2e/store-stand-ins.ts): an owner connects both store accounts
// and sees each owned app's whole review history with its answers; an agent connected with OAuth drafts a reply over
// MCP; an analyst sees it and cannot approve it; an admin approves it and the store receives it exactly once. A key
// revoked at App Store Connect and a review deleted at Google Play each end a reply with a clear message, nothing sent.
import { randomUUID } from 'node:crypto';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { AgentOAuth, transportFor } from '../agent-oauth';
import { seriousViolations } from '../axe';
import { addAppFor, API, newAccount, signInAs, trpc } from '../helpers';
import { mailTo } from '../mailbox';
import { connectStoreAccounts, standIn } from '../store-stand-ins';

type Received = { reviewId?: string; responseBody?: string; replyText?: string }[];

/** A person with an account of their own who joins the owner's with `role`, signed in there in a browser of their own. */
async function memberPage(
  browser: Browser,
  owner: Awaited<ReturnType<typeof newAccount>>,
  role: 'admin' | 'analyst',
): Promise<Page> {
  const person = await newAccount('pro');
  await trpc(owner.session, 'members.invite', { email: person.email, role });
  const token = /\/invitations\/([A-Za-z0-9_-]+)/.exec(await mailTo(person.email))![1];
  await trpc(person.session, 'members.acceptInvitation', { token });
  const page = await (await browser.newContext()).newPage();
  await signInAs(page, person.email, person.password);
  return page;
}

/** The reviews view of an app, read again until `text` shows in `testId` (the background work reads and sends). */
async function untilShown(page: Page, url: string, testId: string, text: string | RegExp): Promise<void> {
  await expect(async () => {
    await page.goto(url);
    await expect(page.getByTestId(testId)).toContainText(text, { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
}

test('an agent drafts a reply, an analyst cannot approve it, an admin does, and the store receives it once; a revoked key and a deleted review say so', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const owner = await newAccount('business');
  const iosId = (await addAppFor(owner.email, 'https://apps.apple.com/us/app/breathe/id1459969523')).trim();
  const playId = (
    await addAppFor(owner.email, 'https://play.google.com/store/apps/details?id=com.calmlabs.breathe')
  ).trim();
  // A key of this account's own at App Store Connect: revoking it below touches no other test's.
  const appleKey = await standIn<{ issuerId: string; keyId: string; privateKey: string }>('app_store', 'keys');
  await signInAs(page, owner.email, owner.password);
  await connectStoreAccounts(page, appleKey);

  // The whole history, read at once with the store account, with the answers the store holds.
  const iosReviews = `/apps/${iosId}/reviews`;
  await untilShown(page, iosReviews, 'fact-reviews-held', '5');
  await expect(page.getByTestId('source-store-account')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('reviews-table').getByRole('row')).toHaveCount(6);
  await expect(page.getByTestId('review-answer').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  // On a phone: nothing scrolls sideways, a review's row stays short.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
  for (const row of await page.getByTestId('reviews-table').locator('tbody tr').all())
    expect((await row.boundingBox())!.height).toBeLessThanOrEqual(120);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The agent: OAuth with the owner's consent (read and write), then the reviews toolset over MCP.
  const oauth = new AgentOAuth();
  await expect(new Client({ name: 'e2e agent', version: '1.0.0' }).connect(transportFor(oauth))).rejects.toBeInstanceOf(
    UnauthorizedError,
  );
  let callback: URL | undefined;
  page.on('request', (request) => {
    if (request.url().startsWith('http://127.0.0.1:48123/')) callback = new URL(request.url());
  });
  await page.goto(oauth.authorizationUrl!.href);
  await page.getByRole('radio', { name: /^Read and write/ }).check();
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect.poll(() => callback?.searchParams.get('code') ?? null).not.toBeNull();
  await transportFor(oauth).finishAuth(callback!.searchParams);
  const agent = new Client({ name: 'e2e agent', version: '1.0.0' });
  await agent.connect(
    new StreamableHTTPClientTransport(new URL(`${baseURL}/api/mcp`), {
      authProvider: oauth,
      requestInit: { headers: { 'X-MCP-Toolsets': 'reviews' } },
    }),
  );
  const tools = (await agent.listTools()).tools.map((tool) => tool.name);
  expect(tools).toContain('reviews_draft_reply');
  expect(tools.some((name) => name.includes('approve'))).toBe(false);
  const listed = await agent.callTool({ name: 'reviews_list', arguments: { id: iosId, source: 'store_account' } });
  const items = (listed.structuredContent as { items: { id: string; storeReviewId: string; author: string }[] }).items;
  const review = items.find((item) => item.storeReviewId.endsWith('0'))!;
  const text = `Thank you, ${review.author}! (${randomUUID().slice(0, 8)})`;
  const drafted = await agent.callTool({
    name: 'reviews_draft_reply',
    arguments: { id: iosId, reviewId: review.id, body: text },
  });
  expect(drafted.isError, JSON.stringify(drafted.content)).toBeFalsy();
  const draft = drafted.structuredContent as { id: string; state: string; draftedBy: string };
  expect(draft).toMatchObject({ state: 'drafted', draftedBy: 'Connected app “E2E agent”' });
  await agent.close();

  // An analyst sees the draft, and may not approve it: no button, and the API refuses their session.
  const analyst = await memberPage(browser, owner, 'analyst');
  await analyst.goto(iosReviews);
  const analystRow = analyst.getByTestId('reply-drafts-table').getByRole('row', { name: new RegExp(review.author) });
  await expect(analystRow).toContainText('Waiting for approval');
  await expect(analystRow.getByRole('button', { name: /Approve/ })).toHaveCount(0);
  const analystToken = (await analyst.context().cookies()).find((each) =>
    each.name.endsWith('next-auth.session-token'),
  )!.value;
  const refused = await analyst.request.post(`${API}/apps/${iosId}/reply-drafts/${draft.id}/approve`, {
    headers: { Authorization: `Bearer ${analystToken}` },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({
    code: 'insufficient-scope',
    detail: expect.stringContaining('analyst'),
  });

  // An admin approves it: sent once.
  const admin = await memberPage(browser, owner, 'admin');
  await admin.goto(iosReviews);
  await admin.getByRole('button', { name: `Approve and send the reply to ${review.author}` }).click();
  await untilShown(admin, iosReviews, 'reply-drafts-table', 'Sent');
  const sentTimes = async () =>
    (await standIn<Received>('app_store', 'received')).filter((each) => each.responseBody === text).length;
  await expect.poll(sentTimes).toBe(1);
  await expect(admin.getByTestId('reviews-table')).toContainText(text);
  // Nothing sends it again.
  await admin.waitForTimeout(3_000);
  expect(await sentTimes()).toBe(1);

  // The key revoked at App Store Connect: the owner's reply is not sent, and the page says why.
  await standIn('app_store', 'revoke', { keyId: appleKey.keyId });
  try {
    await page.goto(iosReviews);
    const second = items.find((item) => item.storeReviewId.endsWith('2'))!;
    const revokedText = `Revoked ${randomUUID().slice(0, 8)}`;
    await page
      .getByRole('row', { name: new RegExp(second.author) })
      .getByRole('button', { name: 'Reply' })
      .click();
    const dialog = page.getByRole('dialog', { name: `Reply to ${second.author}` });
    await dialog.getByRole('textbox', { name: 'Reply' }).fill(revokedText);
    await dialog.getByRole('button', { name: 'Save draft' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: `Approve and send the reply to ${second.author}` }).click();
    await untilShown(page, iosReviews, 'reply-drafts-table', 'Not sent');
    await expect(page.getByTestId('draft-problem').first()).toContainText(
      'Replace the key in Settings → Store accounts',
    );
    expect((await standIn<Received>('app_store', 'received')).some((each) => each.responseBody === revokedText)).toBe(
      false,
    );
  } finally {
    await standIn('app_store', 'restore', { keyId: appleKey.keyId });
  }

  // A review its author deleted at Google Play: refused, with the store's reason.
  const playReviews = `/apps/${playId}/reviews`;
  await untilShown(page, playReviews, 'fact-reviews-held', '3');
  await standIn('google_play', 'delete-review', { id: 'gp:AOqpTO2' });
  await page
    .getByRole('row', { name: /Player 2/ })
    .getByRole('button', { name: 'Reply' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Reply to Player 2' });
  await dialog.getByRole('textbox', { name: 'Reply' }).fill('Thanks for playing!');
  await dialog.getByRole('button', { name: 'Save draft' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Approve and send the reply to Player 2' }).click();
  await untilShown(page, playReviews, 'reply-drafts-table', 'Refused by the store');
  await expect(page.getByTestId('draft-problem').first()).toContainText('no longer has this review');
  expect(await seriousViolations(page)).toEqual([]);
});
