// The API key format of CONTRACT "Credentials": svc_live_ (a test key: svc_test_, CONTRACT "Test mode") + 32 random
// base62 characters + 6 base62 characters of the CRC32 of the random part. The checksum lets the server (and secret
// scanners) reject a mistyped or made-up key without a database lookup. Keys are stored only as the SHA-256 of the
// whole key.
import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** Which data a key reaches: the account's own (live), or its test sandbox's. */
export type KeyMode = 'live' | 'test';
export const KEY_PREFIXES: Record<KeyMode, string> = { live: 'svc_live_', test: 'svc_test_' };
/** Both prefixes are this long. */
const PREFIX_LENGTH = 9;
const BASE62_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const DISPLAY_LENGTH = 4;
const KEY_PATTERN = new RegExp(`^svc_(live|test)_([0-9A-Za-z]{${RANDOM_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`);

/** Unbiased: bytes >= 248 (the largest multiple of 62 below 256) are discarded. */
export function randomBase62(length: number, source: (size: number) => Buffer = randomBytes): string {
  let out = '';
  while (out.length < length) {
    for (const byte of source(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62_ALPHABET[byte % 62];
    }
  }
  return out;
}

/** Big-endian base62 of a non-negative integer, left-padded with '0' to `width`. */
export function base62Encode(value: number, width: number): string {
  let digits = '';
  let rest = value;
  do {
    digits = BASE62_ALPHABET[rest % 62] + digits;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return digits.padStart(width, '0');
}

export function checksumOf(randomPart: string): string {
  return base62Encode(crc32(randomPart), CHECKSUM_LENGTH);
}

export function formatApiKey(randomPart: string, mode: KeyMode = 'live'): string {
  return `${KEY_PREFIXES[mode]}${randomPart}${checksumOf(randomPart)}`;
}

export function hashApiKey(secret: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(hash('sha256', secret, 'buffer'));
}

export function displayPrefixOf(secret: string): string {
  return secret.slice(0, PREFIX_LENGTH + DISPLAY_LENGTH);
}

/** The mode a key (or its display prefix) names; null when it names none. */
export function keyModeOf(value: string): KeyMode | null {
  return value.startsWith(KEY_PREFIXES.live) ? 'live' : value.startsWith(KEY_PREFIXES.test) ? 'test' : null;
}

export function lastFourOf(secret: string): string {
  return secret.slice(-4);
}

export interface GeneratedKey {
  secret: string;
  hash: Uint8Array<ArrayBuffer>;
  displayPrefix: string;
  lastFour: string;
}

export function generateApiKey(mode: KeyMode = 'live', source?: (size: number) => Buffer): GeneratedKey {
  const secret = formatApiKey(randomBase62(RANDOM_LENGTH, source), mode);
  return { secret, hash: hashApiKey(secret), displayPrefix: displayPrefixOf(secret), lastFour: lastFourOf(secret) };
}

/** Shape and checksum only; no database. */
export function isWellFormedApiKey(value: string): boolean {
  const match = KEY_PATTERN.exec(value);
  return match !== null && checksumOf(match[2]!) === match[3];
}

/** "svc_live_" (or "svc_test_") + 4 base62 characters: the display prefix the dashboard shows. */
export function isDisplayPrefix(value: string): boolean {
  return new RegExp(`^svc_(live|test)_[0-9A-Za-z]{${DISPLAY_LENGTH}}$`).test(value);
}
