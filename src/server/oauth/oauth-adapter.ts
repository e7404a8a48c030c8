// oidc-provider's storage adapter (its `adapter` setting): every model it keeps (grants, codes, tokens, registered
// clients, interactions, its sessions) in PostgreSQL's oauth_records (src/server/db/oauth-records.ts), never in
// memory, so that any web process answers any step of a flow and a revocation holds on all of them at once.
import type { Adapter, AdapterPayload } from 'oidc-provider';
import {
  consumeOAuthRecord,
  destroyOAuthGrant,
  destroyOAuthRecord,
  findOAuthRecord,
  findOAuthRecordByUid,
  findOAuthRecordByUserCode,
  upsertOAuthRecord,
} from '@/server/db/oauth-records';

export class OAuthAdapter implements Adapter {
  constructor(private readonly kind: string) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    await upsertOAuthRecord(this.kind, id, payload as Record<string, unknown>, expiresIn);
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return findOAuthRecord(this.kind, id) as Promise<AdapterPayload | undefined>;
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return findOAuthRecordByUid(this.kind, uid) as Promise<AdapterPayload | undefined>;
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return findOAuthRecordByUserCode(this.kind, userCode) as Promise<AdapterPayload | undefined>;
  }

  consume(id: string): Promise<void> {
    return consumeOAuthRecord(this.kind, id);
  }

  destroy(id: string): Promise<void> {
    return destroyOAuthRecord(this.kind, id);
  }

  revokeByGrantId(grantId: string): Promise<void> {
    return destroyOAuthGrant(grantId);
  }
}
