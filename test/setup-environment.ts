import { vi } from 'vitest';
import { resetConfig } from '@/server/core/config';

// Tests change the environment as they go: the configuration is read again after each change. Once per process: the
// files of a worker share it (vitest.config.ts, isolate).
const wrapped = Symbol.for('aso.test-environment-wrapped');
const environment = process.env;
if (!(environment as unknown as Record<symbol, boolean>)[wrapped])
  process.env = new Proxy(environment, {
    set: (target, name, value) => {
      const done = Reflect.set(target, name, value);
      resetConfig();
      return done;
    },
    deleteProperty: (target, name) => {
      const done = Reflect.deleteProperty(target, name);
      resetConfig();
      return done;
    },
    get: (target, name) => (name === wrapped ? true : Reflect.get(target, name)),
  });

// vi.stubEnv and vi.unstubAllEnvs change the environment past the proxy above: they read the configuration again too.
const viState = vi as unknown as Record<symbol, boolean>;
if (!viState[wrapped]) {
  viState[wrapped] = true;
  const { stubEnv, unstubAllEnvs } = vi;
  vi.stubEnv = (name, value) => {
    const result = stubEnv(name, value);
    resetConfig();
    return result;
  };
  vi.unstubAllEnvs = () => {
    const result = unstubAllEnvs();
    resetConfig();
    return result;
  };
}
