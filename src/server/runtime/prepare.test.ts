import { afterEach, describe, expect, it, vi } from 'vitest';
import { config } from '@/server/core/config';
import { settleDataProvider } from './prepare';

describe('the data provider, when DATA_PROVIDER is unset', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('is the demo data on the embedded database', () => {
    vi.stubEnv('DATA_PROVIDER', undefined);
    vi.stubEnv('DATABASE_URL', undefined);
    settleDataProvider();
    expect(config().DATA_PROVIDER).toBe('demo');
  });

  it('is the live stores on a DATABASE_URL, a deployment', () => {
    vi.stubEnv('DATA_PROVIDER', undefined);
    vi.stubEnv('DATABASE_URL', 'postgresql://aso@db.internal:5432/aso');
    settleDataProvider();
    expect(config().DATA_PROVIDER).toBe('stores');
  });

  it('is what it is set to, on any database', () => {
    vi.stubEnv('DATA_PROVIDER', 'demo');
    vi.stubEnv('DATABASE_URL', 'postgresql://aso@db.internal:5432/aso');
    settleDataProvider();
    expect(config().DATA_PROVIDER).toBe('demo');
  });
});
