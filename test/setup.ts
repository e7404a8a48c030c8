import { inject } from 'vitest';
import { resetConfig } from '@/server/core/config';

// Tests change the environment as they go (assignments, vi.stubEnv): the configuration is read again after each change.
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

process.env.DATABASE_URL = inject('databaseUrl');
process.env.DATA_DIR = inject('dataDir');
process.env.NEXTAUTH_SECRET = 'test-secret-of-the-integration-tests-0123456789';
