import { describe, expect, it } from 'vitest';
import { callbackPath } from './callback-path';

describe('the page after sign-in', () => {
  it('is a path of this app, never another site', () => {
    for (const offSite of [
      '//evil.example/x',
      '/\\evil.example',
      '/\\/evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'https://evil.example/',
      'evil.example',
      'javascript:alert(1)',
      '',
      null,
      undefined,
    ]) {
      expect(callbackPath(offSite), JSON.stringify(offSite)).toBe('/apps');
    }
    expect(callbackPath('/settings/api?tab=keys#create')).toBe('/settings/api?tab=keys#create');
    expect(callbackPath('/apps/0d6c2f7a-4b1e-4e8a-9f3c-6a5b4c3d2e11')).toBe(
      '/apps/0d6c2f7a-4b1e-4e8a-9f3c-6a5b4c3d2e11',
    );
  });
});
