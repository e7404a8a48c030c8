import { inject } from 'vitest';
import { TEST_DATA_ENCRYPTION_KEY } from './data-key';

// The integration tests' database: the embedded cluster test/global-setup.ts started and migrated.
process.env.DATABASE_URL = inject('databaseUrl');
process.env.DATA_DIR = inject('dataDir');
process.env.NEXTAUTH_SECRET = 'test-secret-of-the-integration-tests-0123456789';
process.env.DATA_ENCRYPTION_KEY = TEST_DATA_ENCRYPTION_KEY;
// The processes the tests start on this DATABASE_URL would otherwise take it for a deployment's and ask the live stores.
process.env.DATA_PROVIDER = 'demo';
