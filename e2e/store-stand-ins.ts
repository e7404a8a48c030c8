// The stores' stand-ins of connected store accounts (test/stores/), for the e2e server's whole run: started by the
// global setup on fixed ports (its APP_STORE_CONNECT_ORIGIN and GOOGLE_PLAY_DEVELOPER_API_ORIGIN), each writing the
// credential its owner would paste to a file, where a test reads it.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
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
