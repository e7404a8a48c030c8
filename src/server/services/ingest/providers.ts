// Selects the data provider: DATA_PROVIDER=demo (default) or appstore.
import { DemoProvider } from './demo/demo-provider';
import type { DataProvider } from './provider';

let provider: DataProvider | undefined;

export function dataProvider(): DataProvider {
  if (!provider) {
    const name = process.env.DATA_PROVIDER ?? 'demo';
    if (name !== 'demo') throw new Error(`DATA_PROVIDER=${name} is not available`);
    provider = new DemoProvider();
  }
  return provider;
}
