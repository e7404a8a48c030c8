// oidc-provider's state in PostgreSQL (the table oauth_records), shared by every web process: what its adapter
// (src/server/oauth/oauth-adapter.ts) stores and finds. The id of a token, a code or a session is the secret its
// holder presents, and a copy of the table must serve none of them: a record's id is kept as its SHA-256, and the
// copies of secrets inside a payload (its `jti`, which is the id, and a client's `client_secret`) are sealed with the
// data-encryption key (src/server/core/data-encryption.ts), opened again when the record is read.
import { createHash } from 'node:crypto';
import { currentDataKeyId, open, seal, sealedWith } from '@/server/core/data-encryption';
import { Prisma } from '@/generated/prisma/client';
import { db } from './index';

export type OAuthPayload = Record<string, unknown>;

export function oauthIdHash(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('hex');
}

/** Written or replaced whole, with the columns looked up by: its grant (a Grant's own id), its uid and its user code. */
export async function upsertOAuthRecord(
  kind: string,
  id: string,
  payload: OAuthPayload,
  expiresInSeconds: number | undefined,
): Promise<void> {
  const idHash = oauthIdHash(id);
  const columns = {
    payload: sealedPayload(payload) as Prisma.InputJsonValue,
    grantId: stringOf(kind === 'Grant' ? payload.jti : payload.grantId),
    uid: stringOf(payload.uid),
    userCode: stringOf(payload.userCode),
    expiresAt: expiresInSeconds ? new Date(Date.now() + expiresInSeconds * 1000) : null,
  };
  await db.oAuthRecord.upsert({
    where: { kind_idHash: { kind, idHash } },
    create: { kind, idHash, ...columns },
    update: { ...columns, consumedAt: null },
  });
}

const stringOf = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The payload's secrets sealed: `jti` (a token's or a session's value) and `client_secret`. */
const SECRET_FIELDS = ['jti', 'client_secret'] as const;

function sealedPayload(payload: OAuthPayload): OAuthPayload {
  const stored = { ...payload };
  for (const field of SECRET_FIELDS) {
    if (typeof stored[field] === 'string') {
      stored[`${field}Sealed`] = seal(stored[field]);
      delete stored[field];
    }
  }
  return stored;
}

function openedPayload(stored: OAuthPayload): OAuthPayload {
  const payload = { ...stored };
  for (const field of SECRET_FIELDS) {
    const sealed = payload[`${field}Sealed`];
    if (typeof sealed === 'string') {
      payload[field] = open(sealed);
      delete payload[`${field}Sealed`];
    }
  }
  return payload;
}

type RecordRow = { payload: Prisma.JsonValue; expiresAt: Date | null; consumedAt: Date | null };

/** The payload as stored, with `consumed` (seconds since the epoch) once consumed; nothing once expired. */
function payloadOf(row: RecordRow | null): OAuthPayload | undefined {
  if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
  const payload = openedPayload(row.payload as OAuthPayload);
  return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
}

const SELECTED = { payload: true, expiresAt: true, consumedAt: true } as const;

export async function findOAuthRecord(kind: string, id: string): Promise<OAuthPayload | undefined> {
  return payloadOf(
    await db.oAuthRecord.findUnique({ where: { kind_idHash: { kind, idHash: oauthIdHash(id) } }, select: SELECTED }),
  );
}

export async function findOAuthRecordByUid(kind: string, uid: string): Promise<OAuthPayload | undefined> {
  return payloadOf(await db.oAuthRecord.findFirst({ where: { kind, uid }, select: SELECTED }));
}

export async function findOAuthRecordByUserCode(kind: string, userCode: string): Promise<OAuthPayload | undefined> {
  return payloadOf(await db.oAuthRecord.findFirst({ where: { kind, userCode }, select: SELECTED }));
}

/** Marks a code or token used; only the first consumer wins (a code exchanged twice is detected by its `consumed`). */
export async function consumeOAuthRecord(kind: string, id: string): Promise<void> {
  await db.oAuthRecord.updateMany({
    where: { kind, idHash: oauthIdHash(id), consumedAt: null },
    data: { consumedAt: new Date() },
  });
}

export async function destroyOAuthRecord(kind: string, id: string): Promise<void> {
  await db.oAuthRecord.deleteMany({ where: { kind, idHash: oauthIdHash(id) } });
}

/** Every record of a grant, whatever its kind: the grant itself, its codes and tokens. */
export async function destroyOAuthGrant(grantId: string): Promise<void> {
  await db.oAuthRecord.deleteMany({ where: { grantId } });
}

/** Deletes records expired for more than a day (run by the background work); returns how many. */
export async function purgeExpiredOAuthRecords(now = new Date()): Promise<number> {
  const { count } = await db.oAuthRecord.deleteMany({
    where: { expiresAt: { lt: new Date(now.getTime() - 86_400_000) } },
  });
  return count;
}

/**
 * Days a dynamically registered client (RFC 7591) is kept when no one connects it. Registration needs no account (20
 * an hour per client address, src/server/oauth/authorization-server.ts), so without an end the table would keep every
 * registration anyone ever made. An agent registers right before its authorization request. One whose registration was
 * purged is told so on the sign-in page (`invalid_client`, with what to do) and registers again once re-added; at the
 * token endpoint the MCP SDK's client registers again by itself on `invalid_client`.
 */
export const UNUSED_CLIENT_DAYS = 30;

/**
 * Deletes the dynamically registered clients (those with a `client_id_issued_at`) registered more than
 * UNUSED_CLIENT_DAYS ago that no consent ever connected: no connected app, revoked or not (api_keys.oauth_client_id),
 * and no grant (a consent being recorded). Run by the background work with the expired records' purge; returns how
 * many. A client fetched from its metadata document has no issue date and is not touched.
 */
export async function purgeUnusedOAuthClients(now = new Date()): Promise<number> {
  const registeredBefore = Math.floor(now.getTime() / 1000) - UNUSED_CLIENT_DAYS * 86_400;
  return db.$executeRaw`
    DELETE FROM oauth_records client
    WHERE client.kind = 'Client'
      AND CASE WHEN jsonb_typeof(client.payload -> 'client_id_issued_at') = 'number'
               THEN (client.payload ->> 'client_id_issued_at')::numeric < ${registeredBefore} END
      AND NOT EXISTS (SELECT 1 FROM api_keys connected WHERE connected.oauth_client_id = client.payload ->> 'client_id')
      AND NOT EXISTS (SELECT 1 FROM oauth_records grant_record WHERE grant_record.kind = 'Grant' AND grant_record.payload ->> 'clientId' = client.payload ->> 'client_id')`;
}

/**
 * Seals anew every sealed value of the records (a payload's jti and client_secret, a signing key) that another data key
 * sealed: after a rotation of DATA_ENCRYPTION_KEY (`npm run admin -- secrets reseal`), before the previous key is
 * dropped. A record is rewritten only if it is still the one read. Returns how many records were resealed.
 */
export async function resealOAuthRecords(): Promise<number> {
  const current = currentDataKeyId();
  const stale = (value: unknown) =>
    typeof value === 'string' && sealedWith(value) !== null && sealedWith(value) !== current;
  let resealed = 0;
  for (let cursor: { kind: string; idHash: string } | undefined; ; ) {
    const rows = await db.oAuthRecord.findMany({
      select: { kind: true, idHash: true, payload: true },
      orderBy: [{ kind: 'asc' }, { idHash: 'asc' }],
      take: 500,
      ...(cursor && { cursor: { kind_idHash: cursor }, skip: 1 }),
    });
    if (!rows.length) return resealed;
    for (const row of rows) {
      const payload = row.payload as OAuthPayload;
      const fields = Object.keys(payload).filter(
        (field) => (field === 'sealed' || field.endsWith('Sealed')) && stale(payload[field]),
      );
      if (!fields.length) continue;
      const next = { ...payload };
      for (const field of fields) next[field] = seal(open(payload[field] as string));
      const { count } = await db.oAuthRecord.updateMany({
        where: { kind: row.kind, idHash: row.idHash, payload: { equals: row.payload as Prisma.InputJsonValue } },
        data: { payload: next as Prisma.InputJsonValue },
      });
      resealed += count;
    }
    cursor = { kind: rows.at(-1)!.kind, idHash: rows.at(-1)!.idHash };
  }
}
