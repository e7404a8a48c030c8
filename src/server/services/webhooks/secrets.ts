// Webhook signing secrets at rest: sealed with the data-encryption key (core/data-encryption.ts) when stored, opened
// to sign a delivery. Resealing puts every stored secret under the current key: after a key rotation (the operator's
// `npm run admin -- secrets reseal`), and at start for secrets stored before sealing existed.
import { currentDataKeyId, isSealed, open, seal, sealedWith } from '@/server/core/data-encryption';
import { db } from '@/server/db';

export { open as openSecret, seal as sealSecret };

/**
 * Seals every stored secret (current and previous) that is not under the current key; `onlyUnsealed`: those stored
 * in the clear only. Returns how many values were sealed. Each endpoint is updated only if its values are still the
 * ones read, so a rotation meanwhile is never undone.
 */
export async function sealStoredSecrets({ onlyUnsealed = false }: { onlyUnsealed?: boolean } = {}): Promise<number> {
  const current = currentDataKeyId();
  const stale = (value: string | null) =>
    value !== null && (onlyUnsealed ? !isSealed(value) : sealedWith(value) !== current);
  let sealed = 0;
  for (let cursor: string | undefined; ; ) {
    const endpoints = await db.webhookEndpoint.findMany({
      select: { id: true, secret: true, previousSecret: true },
      orderBy: { id: 'asc' },
      take: 500,
      ...(cursor && { cursor: { id: cursor }, skip: 1 }),
    });
    if (!endpoints.length) return sealed;
    for (const endpoint of endpoints) {
      if (!stale(endpoint.secret) && !stale(endpoint.previousSecret)) continue;
      const secret = stale(endpoint.secret) ? seal(open(endpoint.secret)) : endpoint.secret;
      const previousSecret =
        endpoint.previousSecret !== null && stale(endpoint.previousSecret)
          ? seal(open(endpoint.previousSecret))
          : endpoint.previousSecret;
      const { count } = await db.webhookEndpoint.updateMany({
        where: { id: endpoint.id, secret: endpoint.secret, previousSecret: endpoint.previousSecret },
        data: { secret, previousSecret },
      });
      sealed += count * ((secret !== endpoint.secret ? 1 : 0) + (previousSecret !== endpoint.previousSecret ? 1 : 0));
    }
    cursor = endpoints.at(-1)!.id;
  }
}
