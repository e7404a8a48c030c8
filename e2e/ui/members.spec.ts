// Teams in Chromium (issue 40), on the e2e server, which has no mail server: the owner invites and passes the link on
// (the dashboard shows it, saying no email was sent); a new person joins from it with a password of their own and sees
// only what an analyst may; an existing user of another account accepts theirs and switches between their accounts;
// the owner removes a member, whose open session is refused on its next request.
import { expect, test, type Page } from '@playwright/test';
import { API, bearer, newAccount, signInWithForm } from '../helpers';

async function invite(page: Page, email: string, role: string): Promise<string> {
  await page.goto('/settings/members');
  const form = page.getByRole('form', { name: 'Invite a member' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Role').selectOption({ label: role });
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByTestId('invitation-link')).toContainText('No email was sent');
  return (await page.getByTestId('invitation-link-value').textContent())!.trim();
}

test('an owner invites an analyst who joins from the link, and a member of another account who switches between both', async ({ browser }) => {
  test.setTimeout(180_000);
  const owner = await newAccount('business');
  const ownerPage = await (await browser.newContext()).newPage();
  await signInWithForm(ownerPage, owner.email, owner.password);

  // A new person: joins from the link with a password of their own, and sees what an analyst may.
  const analystEmail = `analyst-${Date.now()}@example.test`;
  const analystLink = await invite(ownerPage, analystEmail, 'Analyst');
  await expect(ownerPage.getByTestId('invitations-table')).toContainText(analystEmail);
  const analystPage = await (await browser.newContext()).newPage();
  await analystPage.goto(analystLink);
  await expect(analystPage.getByRole('heading', { level: 1 })).toContainText('Join');
  const join = analystPage.getByRole('form', { name: 'Join with a new password' });
  await join.getByLabel('Password (at least 10 characters)').fill('analyst-password-123');
  await join.getByRole('button', { name: 'Join' }).click();
  await expect(analystPage).toHaveURL(/\/settings\/members$/);
  await expect(analystPage.getByTestId('members-table')).toContainText(owner.email);
  const nav = analystPage.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Apps' })).toBeVisible();
  for (const hidden of ['API access', 'Webhooks', 'Security log', 'Plan & billing']) await expect(nav.getByRole('link', { name: hidden })).toHaveCount(0);
  await expect(analystPage.getByRole('form', { name: 'Invite a member' })).toHaveCount(0);
  // The link works once.
  await analystPage.goto(analystLink);
  await expect(analystPage.getByTestId('invitation-refusal')).toContainText('already been used');

  // A user of another account accepts theirs, then moves between the two accounts with the switcher.
  const other = await newAccount('pro');
  const developerLink = await invite(ownerPage, other.email, 'Developer');
  const otherPage = await (await browser.newContext()).newPage();
  await signInWithForm(otherPage, other.email, other.password);
  await otherPage.goto(developerLink);
  await otherPage.getByRole('button', { name: 'Accept the invitation' }).click();
  await expect(otherPage).toHaveURL(/\/settings\/members$/);
  await expect(otherPage.getByTestId('members-table')).toContainText(owner.email);
  const switcher = otherPage.getByTestId('account-switcher');
  await expect(switcher).toBeVisible();
  await switcher.selectOption({ label: other.email });
  await expect(otherPage.getByTestId('members-table')).not.toContainText(owner.email);

  // The owner removes the analyst: their open session is refused on its next request.
  await ownerPage.goto('/settings/members');
  await ownerPage.getByRole('button', { name: `Remove ${analystEmail}` }).click();
  await ownerPage.getByRole('alertdialog', { name: 'Remove member?' }).getByRole('button', { name: 'Remove member' }).click();
  await expect(ownerPage.getByTestId('members-table')).not.toContainText(analystEmail);
  await analystPage.goto('/settings/members');
  await expect(analystPage).toHaveURL(/\/sign-in/);
});

test('an analyst’s session token gets 403 on POST /keys, with why', async ({ browser }) => {
  const owner = await newAccount('pro');
  const ownerPage = await (await browser.newContext()).newPage();
  await signInWithForm(ownerPage, owner.email, owner.password);
  const link = await invite(ownerPage, `token-${Date.now()}@example.test`, 'Analyst');
  const page = await (await browser.newContext()).newPage();
  await page.goto(link);
  const join = page.getByRole('form', { name: 'Join with a new password' });
  await join.getByLabel('Password (at least 10 characters)').fill('analyst-password-123');
  await join.getByRole('button', { name: 'Join' }).click();
  await expect(page).toHaveURL(/\/settings\/members$/);
  const cookie = (await page.context().cookies()).find((each) => each.name.endsWith('next-auth.session-token'))!;
  const refused = await page.request.post(`${API}/keys`, { headers: bearer(cookie.value), data: { name: 'by an analyst', scope: 'read-only' } });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ code: 'insufficient-scope', detail: expect.stringContaining('analyst') });
});
