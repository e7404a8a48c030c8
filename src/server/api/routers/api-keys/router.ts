// Settings → API access: on the dashboard, and under /keys for a session token. An API key can never manage keys.
import { router } from '@/server/api/trpc';
import {
  createApiKeyProcedure,
  getApiKeyProcedure,
  keyCallsProcedure,
  keyExpiryPolicyProcedure,
  keyUsageProcedure,
  listApiKeysProcedure,
  restrictApiKeyProcedure,
  revokeApiKeyProcedure,
  rollApiKeyProcedure,
  setKeyExpiryPolicyProcedure,
  updateApiKeyProcedure,
} from './api-keys.procedures';

export const apiKeysRouter = router({
  list: listApiKeysProcedure,
  create: createApiKeyProcedure,
  get: getApiKeyProcedure,
  update: updateApiKeyProcedure,
  revoke: revokeApiKeyProcedure,
  roll: rollApiKeyProcedure,
  restrict: restrictApiKeyProcedure,
  expiryPolicy: keyExpiryPolicyProcedure,
  setExpiryPolicy: setKeyExpiryPolicyProcedure,
  usage: keyUsageProcedure,
  calls: keyCallsProcedure,
});
