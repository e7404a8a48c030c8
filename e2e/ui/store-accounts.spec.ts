// Issue 67: an owner connects the account's App Store Connect and Google Play Console accounts in Settings → Store
// accounts (the stores' stand-ins, e2e/store-stand-ins.ts), sees the tracked apps each owns, is told clearly what is
// wrong with a bad key (nothing stored), and removes one; an analyst is not offered the page.
import { expect, test } from '@playwright/test';
import { addAppFor, newAccount, signInAs } from '../helpers';
import { seriousViolations } from '../axe';
import { appStoreConnectKey, googlePlayKey } from '../store-stand-ins';

for (const width of [1440, 390]) {
  test(`store accounts are connected, checked and removed at ${width} px`, async ({ page }) => {
    const { email, password } = await newAccount('pro');
    // The stand-ins' apps: Breathe on the App Store (its id) and on Google Play (its package).
    await addAppFor(email, 'https://apps.apple.com/us/app/breathe/id1459969523');
    await addAppFor(email, 'https://play.google.com/store/apps/details?id=com.calmlabs.breathe');
    await page.setViewportSize({ width, height: 900 });
    await signInAs(page, email, password);
    await page.goto('/settings/store-accounts');
    await expect(page.getByRole('heading', { name: 'Store accounts', level: 1 })).toBeVisible();

    // A .p8 that is no key: a clear message, and nothing connected.
    const key = appStoreConnectKey();
    await page.getByRole('button', { name: 'Connect App Store Connect' }).click();
    const apple = page.getByRole('dialog', { name: 'Connect App Store Connect' });
    await apple.getByLabel('Issuer ID').fill(key.issuerId);
    await apple.getByLabel('Key ID').fill(key.keyId);
    await apple
      .getByLabel('Private key (.p8)')
      .fill('-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----');
    await apple.getByRole('button', { name: 'Check and connect' }).click();
    await expect(apple.getByRole('alert')).toContainText('.p8');
    expect(await seriousViolations(page)).toEqual([]);
    await apple.getByLabel('Private key (.p8)').fill(key.privateKey);
    await apple.getByRole('button', { name: 'Check and connect' }).click();
    await expect(apple).toBeHidden();
    const appleCard = page.getByTestId('store-account-app_store');
    await expect(appleCard).toContainText(`Key ${key.keyId}`);
    await expect(appleCard).toContainText(/Owns (?!none)/);

    await page.getByRole('button', { name: 'Connect Google Play Console' }).click();
    const google = page.getByRole('dialog', { name: 'Connect Google Play Console' });
    await google.getByLabel('Service account key (JSON)').fill(googlePlayKey());
    await google.getByRole('button', { name: 'Check and connect' }).click();
    await expect(google).toBeHidden();
    await expect(page.getByTestId('store-account-google_play')).toContainText('iam.gserviceaccount.com');
    await expect(page.getByTestId('store-account-google_play')).toContainText(/Owns (?!none)/);
    expect(await seriousViolations(page)).toEqual([]);
    // Nothing scrolls sideways on a phone.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);

    // The key is never shown again: not in the page.
    expect(await page.content()).not.toContain(key.privateKey.split('\n')[1]!);

    await appleCard.getByRole('button', { name: 'Remove' }).click();
    await page.getByTestId('remove-store-account-confirm').click();
    await expect(appleCard).toContainText('Not connected.');

    // The security log says each step.
    await page.goto('/settings/security');
    await expect(page.getByText(/connected the App Store Connect account/).first()).toBeVisible();
    await expect(page.getByText(/removed the App Store Connect account/).first()).toBeVisible();
  });
}
