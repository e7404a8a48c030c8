// The signature verification code published on /docs/webhooks, for Node.js and Python: what a customer copies to check
// our signatures (./signing.ts). docs-snippets.test.ts runs both against real signatures.
import { TOLERANCE_SECONDS } from './signing';

export const VERIFICATION_SNIPPETS = {
  node: `import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the request body exactly as received (a string), before any JSON parsing.
export function verifyWebhook(rawBody, signatureHeader, secret, toleranceSeconds = ${TOLERANCE_SECONDS}) {
  const parts = signatureHeader.split(',');
  const timestamp = Number(parts.find((part) => part.startsWith('t='))?.slice(2));
  const signatures = parts.filter((part) => part.startsWith('v1=')).map((part) => part.slice(3));
  if (!Number.isInteger(timestamp) || signatures.length === 0) return false;
  if (Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds) return false; // stale: possibly replayed
  const expected = createHmac('sha256', secret).update(\`\${timestamp}.\${rawBody}\`).digest();
  return signatures.some((hex) => /^[0-9a-f]{64}$/.test(hex) && timingSafeEqual(Buffer.from(hex, 'hex'), expected));
}`,
  python: `import hashlib, hmac, time

def verify_webhook(raw_body: bytes, signature_header: str, secret: str, tolerance_seconds: int = ${TOLERANCE_SECONDS}) -> bool:
    parts = [part.strip() for part in signature_header.split(",")]
    timestamps = [part[2:] for part in parts if part.startswith("t=")]
    signatures = [part[3:] for part in parts if part.startswith("v1=")]
    if len(timestamps) != 1 or not timestamps[0].isdigit() or not signatures:
        return False
    timestamp = int(timestamps[0])
    if abs(time.time() - timestamp) > tolerance_seconds:
        return False  # stale: possibly replayed
    signed = str(timestamp).encode() + b"." + raw_body
    expected = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, candidate) for candidate in signatures)`,
};
