// The dashboard with a keyboard only: creating a key, revoking it, adding and removing a webhook endpoint. Focus goes
// where the user expects after each step, Escape closes every dialog and gives focus back to what opened it, and each
// action is confirmed by a toast (an aria-live region).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { newAccount, signInWithForm } from '../helpers';

/** Presses Tab until `target` has focus: what a keyboard user does, and a failure if it is not reachable. */
async function tabTo(page: Page, target: Locator, limit = 60) {
  for (let step = 0; step < limit; step++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`not reachable with Tab within ${limit} presses: ${target}`);
}

const toast = (page: Page, text: string | RegExp) => page.locator('[data-sonner-toast]').filter({ hasText: text });

test('create a key and revoke it with the keyboard alone', async ({ page }) => {
  const { email, password } = await newAccount('pro');
  await signInWithForm(page, email, password);
  await page.goto('/settings/api');

  // The skip link leads past the navigation.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');

  // The create form opens in a dialog, focus on its first field.
  await tabTo(page, page.getByRole('button', { name: 'New key' }));
  await page.keyboard.press('Enter');
  const form = page.getByRole('form', { name: 'Create key' });
  await expect(form.getByLabel('Name')).toBeFocused();
  await page.keyboard.type('Keyboard key');
  await page.keyboard.press('Enter');

  // The new secret takes focus; Copy is the next stop.
  const secretBox = page.getByTestId('new-secret');
  await expect(secretBox).toBeFocused();
  await expect(toast(page, 'Key “Keyboard key” created')).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(secretBox.getByRole('button', { name: 'Copy', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(toast(page, 'Secret copied')).toBeVisible();

  // The row's actions are in a menu: arrows move, Revoke is last.
  const actions = page.getByRole('button', { name: 'Actions for Keyboard key' });
  const chooseRevoke = async () => {
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem', { name: 'Roll' })).toBeFocused();
    await page.keyboard.press('End');
    await expect(page.getByRole('menuitem', { name: 'Revoke' })).toBeFocused();
    await page.keyboard.press('Enter');
  };
  await tabTo(page, actions);
  await chooseRevoke();
  const dialog = page.getByRole('alertdialog', { name: /Revoke key/ });
  await expect(dialog).toBeVisible();
  // Focus is inside the dialog, on its safe choice; Escape closes it and gives focus back.
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(actions).toBeFocused();

  await chooseRevoke();
  await expect(dialog).toBeVisible();
  await tabTo(page, dialog.getByRole('button', { name: 'Revoke key' }), 5);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  // The row's buttons are gone with the key: focus goes to the table's heading, and the revocation is announced.
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeFocused();
  await expect(toast(page, /Key “Keyboard key” revoked/)).toBeVisible();
  await expect(actions).toHaveCount(0);
});

test('add a webhook endpoint, rotate its secret and delete it with the keyboard alone', async ({ page }) => {
  const { email, password } = await newAccount('pro');
  await signInWithForm(page, email, password);
  await page.goto('/settings/webhooks');
  await expect(page.getByTestId('endpoints-empty')).toContainText('No endpoints yet');

  await tabTo(page, page.getByRole('button', { name: 'New endpoint' }));
  await page.keyboard.press('Enter');
  const form = page.getByRole('form', { name: 'Add endpoint' });
  await expect(form.getByLabel('Endpoint URL (HTTPS)')).toBeFocused();
  await page.keyboard.type('http://127.0.0.1:9/hooks/keyboard');
  await page.keyboard.press('Tab');
  await expect(form.getByLabel('Description')).toBeFocused();
  await page.keyboard.type('keyboard receiver');
  await page.keyboard.press('Tab');
  // The first event kind: ticked with Space.
  await expect(form.getByRole('checkbox').first()).toBeFocused();
  await page.keyboard.press('Space');
  await expect(form.getByRole('checkbox').first()).toBeChecked();
  await tabTo(page, form.getByRole('button', { name: 'Add endpoint' }));
  await page.keyboard.press('Enter');

  const secretBox = page.getByTestId('webhook-secret');
  await expect(secretBox).toBeFocused();
  await expect(toast(page, 'Endpoint added')).toBeVisible();

  const endpoint = page.locator('[data-endpoint-url="http://127.0.0.1:9/hooks/keyboard"]');
  const rotate = endpoint.getByRole('button', { name: 'Rotate secret' });
  await tabTo(page, rotate);
  await page.keyboard.press('Enter');
  const rotateDialog = page.getByRole('alertdialog', { name: 'Rotate the signing secret?' });
  await expect(rotateDialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(rotateDialog).toBeHidden();
  await expect(rotate).toBeFocused();
  await page.keyboard.press('Enter');
  await tabTo(page, rotateDialog.getByRole('button', { name: 'Rotate secret' }), 5);
  await page.keyboard.press('Enter');
  // The new secret takes focus.
  await expect(secretBox).toBeFocused();
  await expect(secretBox).toContainText('previous one also signs until');
  await expect(toast(page, 'Signing secret rotated')).toBeVisible();

  const remove = endpoint.getByRole('button', { name: 'Delete' });
  await tabTo(page, remove);
  await page.keyboard.press('Enter');
  const deleteDialog = page.getByRole('alertdialog', { name: /Delete the endpoint/ });
  await expect(deleteDialog).toContainText('cannot be undone');
  await page.keyboard.press('Escape');
  await expect(remove).toBeFocused();
  await page.keyboard.press('Enter');
  await tabTo(page, deleteDialog.getByRole('button', { name: 'Delete endpoint' }), 5);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeFocused();
  await expect(toast(page, 'deleted')).toBeVisible();
  await expect(page.getByTestId('endpoints-empty')).toBeVisible();
});
