// Selects the data provider: DATA_PROVIDER=demo (default) or appstore.
import { AppStoreProvider } from './appstore/appstore-provider';
import { DemoProvider } from './demo/demo-provider';
import type { DataProvider } from './provider';

let provider: DataProvider | undefined;

export function dataProvider(): DataProvider {
  if (!provider) {
    const name = process.env.DATA_PROVIDER ?? 'demo';
    if (name === 'demo') provider = new DemoProvider();
    else if (name === 'appstore') provider = new AppStoreProvider();
    else throw new Error(`DATA_PROVIDER must be demo or appstore, not "${name}"`);
  }
  return provider;
}
