// Secrets the service must read back (webhook signing secrets: it signs with them) are stored sealed: AES-256-GCM
// under a dedicated data-encryption key (DATA_ENCRYPTION_KEY), separate from the session secret, so that rotating one
// never loses the other, and a database dump alone reveals none of them. A sealed value names the key that sealed it
// (the first 8 hex digits of the key's SHA-256): after a rotation, values sealed under a previous key
// (DATA_ENCRYPTION_PREVIOUS_KEYS) still open, until `npm run admin -- secrets reseal` has sealed them all anew.
//
// Format: `v1.<key id>.<iv>.<tag>.<ciphertext>`, base64url, with the key id as associated data.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { config } from './config';

const PREFIX = 'v1';

interface DataKey {
  id: string;
  key: Buffer;
}

function dataKeyOf(encoded: string): DataKey {
  const key = Buffer.from(encoded, 'base64url');
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 8), key };
}

let ring: { current: DataKey; all: Map<string, DataKey> } | undefined;
let ringFrom: string | undefined;

function keyRing() {
  const { DATA_ENCRYPTION_KEY: current, DATA_ENCRYPTION_PREVIOUS_KEYS: previous } = config();
  if (!current)
    throw new Error(
      'DATA_ENCRYPTION_KEY is not set: start the app with `npm start` (it generates one into DATA_DIR) or set it',
    );
  const from = [current, ...(previous ?? [])].join(',');
  if (ring && ringFrom === from) return ring;
  const keys = [current, ...(previous ?? [])].map(dataKeyOf);
  ring = { current: keys[0]!, all: new Map(keys.map((key) => [key.id, key])) };
  ringFrom = from;
  return ring;
}

/** A new random key, as DATA_ENCRYPTION_KEY takes it (32 bytes, base64url). */
export function generateDataKey(): string {
  return randomBytes(32).toString('base64url');
}

export function isSealed(value: string): boolean {
  return value.startsWith(`${PREFIX}.`);
}

/** The id of the key a sealed value was sealed with. */
export function sealedWith(value: string): string | null {
  return isSealed(value) ? (value.split('.')[1] ?? null) : null;
}

export function currentDataKeyId(): string {
  return keyRing().current.id;
}

export function seal(plaintext: string): string {
  const { current } = keyRing();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', current.key, iv);
  cipher.setAAD(Buffer.from(current.id));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [
    PREFIX,
    current.id,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    ciphertext.toString('base64url'),
  ].join('.');
}

/** The plaintext of a sealed value (a value stored before sealing existed is returned as it is, until it is sealed). */
export function open(value: string): string {
  if (!isSealed(value)) return value;
  const [, id, iv, tag, ciphertext] = value.split('.');
  const key = keyRing().all.get(id ?? '');
  if (!key)
    throw new Error(
      `a secret is sealed with data key ${id}, which is neither DATA_ENCRYPTION_KEY nor in DATA_ENCRYPTION_PREVIOUS_KEYS`,
    );
  const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv!, 'base64url'));
  decipher.setAAD(Buffer.from(key.id));
  decipher.setAuthTag(Buffer.from(tag!, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext!, 'base64url')), decipher.final()]).toString('utf8');
}
