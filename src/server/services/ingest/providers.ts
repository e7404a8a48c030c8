// Selects the data provider: DATA_PROVIDER=demo (default) or appstore.
import { AppStoreProvider } from './appstore/appstore-provider';
import { DemoProvider } from './demo/demo-provider';
import type { DataProvider } from './provider';
import { config } from '@/server/core/config';

let provider: DataProvider | undefined;

export function dataProvider(): DataProvider {
  if (!provider) {
    provider = config().DATA_PROVIDER === 'appstore' ? new AppStoreProvider() : new DemoProvider();
  }
  return provider;
}
