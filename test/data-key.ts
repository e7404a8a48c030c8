// The integration tests' data-encryption key: the global set-up (which prepares the database as `npm start` does)
// and every test worker seal and open webhook secrets with it.
export const TEST_DATA_ENCRYPTION_KEY = 'dGVzdC1kYXRhLWVuY3J5cHRpb24ta2V5LTAxMjM0NTY';
