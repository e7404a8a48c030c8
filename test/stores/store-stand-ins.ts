// Both stores' stand-ins of connected store accounts for one test file: started before its tests, the app's settings
// pointed at them (and at this machine, for Google's token_uri), stopped after.
import { afterAll, beforeAll } from 'vitest';
import { resetConfig } from '@/server/core/config';
import { startAppStoreConnectStandIn, type AppStoreConnectStandIn } from './app-store-connect-stand-in';
import { startGooglePlayConsoleStandIn, type GooglePlayConsoleStandIn } from './google-play-console-stand-in';

export interface StoreStandIns {
  apple: AppStoreConnectStandIn;
  google: GooglePlayConsoleStandIn;
}

/** The stand-ins of the file's tests, filled once its `beforeAll` ran. */
export function useStoreStandIns(): StoreStandIns {
  const standIns = {} as StoreStandIns;
  beforeAll(async () => {
    [standIns.apple, standIns.google] = await Promise.all([
      startAppStoreConnectStandIn(),
      startGooglePlayConsoleStandIn(),
    ]);
    process.env.APP_STORE_CONNECT_ORIGIN = standIns.apple.origin;
    process.env.GOOGLE_PLAY_DEVELOPER_API_ORIGIN = standIns.google.origin;
    // The stand-in's token_uri is on this machine, which only tests allow.
    process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST = 'true';
    resetConfig();
  });
  afterAll(async () => {
    delete process.env.APP_STORE_CONNECT_ORIGIN;
    delete process.env.GOOGLE_PLAY_DEVELOPER_API_ORIGIN;
    delete process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST;
    resetConfig();
    await Promise.all([standIns.apple.close(), standIns.google.close()]);
  });
  return standIns;
}
