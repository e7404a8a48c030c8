// The stores' stand-ins of connected store accounts (test/stores/), for the e2e server's whole run: started by the
// global setup on fixed ports (its APP_STORE_CONNECT_ORIGIN and GOOGLE_PLAY_DEVELOPER_API_ORIGIN), each writing the
// credential its owner would paste to a file, where a test reads it.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { APP_STORE_CONNECT_PORT, GOOGLE_PLAY_CONSOLE_PORT } from '../playwright.config';
import { startAppStoreConnectStandIn } from '../test/stores/app-store-connect-stand-in';
import { startGooglePlayConsoleStandIn } from '../test/stores/google-play-console-stand-in';

const DIR = '.data/e2e-stores';

export async function startStoreStandIns(): Promise<() => Promise<void>> {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const [apple, google] = await Promise.all([
    startAppStoreConnectStandIn(APP_STORE_CONNECT_PORT),
    startGooglePlayConsoleStandIn(GOOGLE_PLAY_CONSOLE_PORT),
  ]);
  writeFileSync(path.join(DIR, 'app-store-connect.json'), JSON.stringify(apple.key));
  writeFileSync(path.join(DIR, 'google-play.json'), google.keyJson);
  return async () => {
    await Promise.all([apple.close(), google.close()]);
  };
}

/** The App Store Connect API key its stand-in issued: issuer id, key id, the .p8's text. */
export function appStoreConnectKey(): { issuerId: string; keyId: string; privateKey: string } {
  return JSON.parse(readFileSync(path.join(DIR, 'app-store-connect.json'), 'utf8'));
}

/** The Google Play service account's JSON key its stand-in issued (its token_uri the stand-in's). */
export function googlePlayKey(): string {
  return readFileSync(path.join(DIR, 'google-play.json'), 'utf8');
}

const ORIGINS = {
  app_store: `http://127.0.0.1:${APP_STORE_CONNECT_PORT}`,
  google_play: `http://127.0.0.1:${GOOGLE_PLAY_CONSOLE_PORT}`,
} as const;

/**
 * The stand-ins' own controls (test/stores/): what a store's owner or a reviewer does there (revoke a key, delete a
 * review), and what the store received. Not the stores' API.
 */
export async function standIn<T = unknown>(
  store: keyof typeof ORIGINS,
  what: 'received' | 'keys' | 'revoke' | 'restore' | 'delete-review',
  query: Record<string, string> = {},
): Promise<T> {
  const response = await fetch(`${ORIGINS[store]}/_stand-in/${what}?${new URLSearchParams(query)}`, {
    method: what === 'received' ? 'GET' : 'POST',
  });
  if (!response.ok) throw new Error(`the ${store} stand-in answered ${response.status} to ${what}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/** Connects both store accounts in Settings → Store accounts (the signed-in member's account), with these keys. */
export async function connectStoreAccounts(
  page: Page,
  apple: { issuerId: string; keyId: string; privateKey: string } = appStoreConnectKey(),
): Promise<void> {
  await page.goto('/settings/store-accounts');
  await page.getByRole('button', { name: 'Connect App Store Connect' }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect App Store Connect' });
  await dialog.getByLabel('Issuer ID').fill(apple.issuerId);
  await dialog.getByLabel('Key ID').fill(apple.keyId);
  await dialog.getByLabel('Private key (.p8)').fill(apple.privateKey);
  await dialog.getByRole('button', { name: 'Check and connect' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Connect Google Play Console' }).click();
  const google = page.getByRole('dialog', { name: 'Connect Google Play Console' });
  await google.getByLabel('Service account key (JSON)').fill(googlePlayKey());
  await google.getByRole('button', { name: 'Check and connect' }).click();
  await expect(google).toBeHidden();
  await expect(page.getByTestId('store-account-app_store')).toContainText(/Owns (?!none)/);
  await expect(page.getByTestId('store-account-google_play')).toContainText(/Owns (?!none)/);
}
