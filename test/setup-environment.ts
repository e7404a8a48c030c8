import { vi } from 'vitest';
import { resetConfig } from '@/server/core/config';

// Tests change the environment as they go: the configuration is read again after each change.
const environment = process.env;
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
});

// vi.stubEnv and vi.unstubAllEnvs change the environment past the proxy above: they read the configuration again too.
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
