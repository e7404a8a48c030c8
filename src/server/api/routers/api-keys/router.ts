// Settings → API access. Dashboard only: an API key can never manage keys.
import { router } from '@/server/api/trpc';
import {
  createApiKeyProcedure,
  keyCallsProcedure,
  keyExpiryPolicyProcedure,
  keyUsageProcedure,
  listApiKeysProcedure,
  restrictApiKeyProcedure,
  revokeApiKeyProcedure,
  rollApiKeyProcedure,
  setKeyExpiryPolicyProcedure,
} from './api-keys.procedures';

export const apiKeysRouter = router({
  list: listApiKeysProcedure,
  create: createApiKeyProcedure,
  revoke: revokeApiKeyProcedure,
  roll: rollApiKeyProcedure,
  restrict: restrictApiKeyProcedure,
  expiryPolicy: keyExpiryPolicyProcedure,
  setExpiryPolicy: setKeyExpiryPolicyProcedure,
  usage: keyUsageProcedure,
  calls: keyCallsProcedure,
});
