// Download links of exports' files (issue 68): `…/export-files/{fileId}?expires=<unix seconds>&signature=<hex>`, the
// signature an HMAC-SHA256 of "<fileId>.<expires>" under a key derived from the deployment's auth secret, as S3's
// presigned URLs sign what they allow and until when: the link carries no credential, and altering either part voids
// it. Pure, so that the tests sign a link as the server does (one already expired, for its refusal).
import { createHmac, timingSafeEqual } from 'node:crypto';

export function downloadLinkSignature(secret: string, fileId: string, expires: number): string {
  const key = createHmac('sha256', secret).update('aso export download links').digest();
  return createHmac('sha256', key).update(`${fileId}.${expires}`).digest('hex');
}

/** Whether `signature` is the link's (constant time). */
export function isDownloadLinkSignature(secret: string, fileId: string, expires: number, signature: string): boolean {
  const expected = Buffer.from(downloadLinkSignature(secret, fileId, expires), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
