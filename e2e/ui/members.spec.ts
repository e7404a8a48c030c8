// Teams in Chromium (issue 40), the e2e server's mail caught by a local SMTP server (e2e/mailbox.ts): the owner
// invites; a new person joins from the received link with a password of their own and sees only what an analyst may;
// an existing user of another account accepts theirs and switches between their accounts; the owner removes a
// member, whose open session is refused on its next request.
import { expect, test, type Page } from '@playwright/test';
import { API, bearer, newAccount, signInAs, chooseRowAction, openCreateKeyForm } from '../helpers';
import { mailTo } from '../mailbox';

/** Invites through the members page; the link, from the mail the invited address received (e2e/mailbox.ts). */
async function invite(page: Page, email: string, role: string): Promise<string> {
  await page.goto('/settings/members');
  const form = page.getByRole('form', { name: 'Invite a member' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Role').selectOption({ label: role });
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${email}`)).toBeVisible();
  await expect(page.getByTestId('invitation-link')).toHaveCount(0);
  const mail = await mailTo(email);
  expect(mail).toContain(`to join`);
  return /https?:\/\/[^\s]+\/invitations\/[A-Za-z0-9_-]+/.exec(mail)![0];
}

test('the owner invites a developer and an analyst by mail; the developer’s key outlives their removal; the analyst reads, is refused keys, and switches accounts', async ({
  browser,
}) => {
  const owner = await newAccount('business');
  const ownerPage = await (await browser.newContext()).newPage();
  await signInAs(ownerPage, owner.email, owner.password);

  // The developer is new here: joins from the received link with a password of their own, and makes a key.
  // The page says what each role may do, from the table the access policy enforces.
  await ownerPage.goto('/settings/members');
  const keysRow = ownerPage
    .getByTestId('role-permissions')
    .getByRole('row', { name: /^Manage API keys and connected apps/ });
  await expect(keysRow.getByRole('cell')).toHaveText(
    ['Yes', 'Yes', 'Yes', 'No', 'No'].map((allowed) => new RegExp(allowed)),
  );
  // Each permission lists the operations it governs, from the procedures: resetting test data is a developer's too.
  const dataRow = ownerPage.getByTestId('role-permissions').getByRole('row', { name: /^Add and remove apps/ });
  await expect(dataRow.getByRole('cell')).toHaveText(
    ['Yes', 'Yes', 'Yes', 'No', 'No'].map((allowed) => new RegExp(allowed)),
  );
  await dataRow.getByText(/\d+ operations?$/).click();
  await expect(dataRow.getByRole('listitem').filter({ hasText: 'Reset test data' })).toBeVisible();
  const developerEmail = `developer-${Date.now()}@example.test`;
  const developerLink = await invite(ownerPage, developerEmail, 'Developer');
  await expect(ownerPage.getByTestId('invitations-table')).toContainText(developerEmail);
  const developerPage = await (await browser.newContext()).newPage();
  await developerPage.goto(developerLink);
  await expect(developerPage.getByRole('heading', { level: 1 })).toContainText('Join');
  const join = developerPage.getByRole('form', { name: 'Join with a new password' });
  await join.getByLabel('Password (at least 10 characters)').fill('developer-password-123');
  await join.getByRole('button', { name: 'Join' }).click();
  await expect(developerPage).toHaveURL(/\/settings\/members$/);
  await developerPage.goto('/settings/api');
  const form = await openCreateKeyForm(developerPage);
  await form.getByLabel('Name').fill('made by the developer');
  await form.getByRole('button', { name: 'Create key' }).click();
  const key = (await developerPage.getByTestId('secret-value').textContent())!.trim();
  // The link works once.
  await developerPage.goto(developerLink);
  await expect(developerPage.getByTestId('invitation-refusal')).toContainText('already been used');

  // The analyst has an account of their own: signs in and accepts from their link.
  const analyst = await newAccount('pro');
  const analystLink = await invite(ownerPage, analyst.email, 'Analyst');
  const analystPage = await (await browser.newContext()).newPage();
  await signInAs(analystPage, analyst.email, analyst.password);
  await analystPage.goto(analystLink);
  await analystPage.getByRole('button', { name: 'Accept the invitation' }).click();
  await expect(analystPage).toHaveURL(/\/settings\/members$/);
  await expect(analystPage.getByTestId('members-table')).toContainText(owner.email);
  const nav = analystPage.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Apps' })).toBeVisible();
  for (const hidden of ['API access', 'Webhooks', 'Security log', 'Plan & billing'])
    await expect(nav.getByRole('link', { name: hidden })).toHaveCount(0);
  await expect(analystPage.getByRole('form', { name: 'Invite a member' })).toHaveCount(0);
  await analystPage.goto('/apps');
  await expect(analystPage.getByRole('heading', { level: 1 })).toBeVisible();
  // A page the role cannot use, opened by its address: Members says why, never an error page.
  await analystPage.goto('/settings/api');
  await expect(analystPage).toHaveURL(/\/settings\/members\?denied=keys\.manage$/);
  await expect(analystPage.getByTestId('role-denied')).toContainText(
    'analyst, does not let you manage API keys and connected apps',
  );
  const cookie = (await analystPage.context().cookies()).find((each) => each.name.endsWith('next-auth.session-token'))!;
  const refused = await analystPage.request.post(`${API}/keys`, {
    headers: bearer(cookie.value),
    data: { name: 'by an analyst', scope: 'read-only' },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({
    code: 'insufficient-scope',
    detail: expect.stringContaining('analyst'),
  });

  // The owner removes the developer: their open session is refused on its next request; their key keeps working.
  await ownerPage.goto('/settings/members');
  await chooseRowAction(ownerPage, developerEmail, 'Remove');
  await ownerPage
    .getByRole('alertdialog', { name: 'Remove member?' })
    .getByRole('button', { name: 'Remove member' })
    .click();
  await expect(ownerPage.getByTestId('members-table')).not.toContainText(developerEmail);
  await developerPage.goto('/settings/members');
  await expect(developerPage).toHaveURL(/\/sign-in/);
  expect((await ownerPage.request.get(`${API}/apps`, { headers: bearer(key) })).status()).toBe(200);

  // The analyst moves between their two accounts with the switcher.
  await analystPage.goto('/settings/members');
  const switcher = analystPage.getByTestId('account-switcher');
  await switcher.selectOption({ label: analyst.email });
  await expect(analystPage.getByTestId('members-table')).not.toContainText(owner.email);
  await analystPage.getByTestId('account-switcher').selectOption({ label: owner.email });
  await expect(analystPage.getByTestId('members-table')).toContainText(owner.email);
});
