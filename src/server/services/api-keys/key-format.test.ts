import { describe, expect, it } from 'vitest';
import {
  base62Encode,
  checksumOf,
  displayPrefixOf,
  formatApiKey,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  keyModeOf,
  lastFourOf,
  randomBase62,
} from './key-format';

// Golden vectors. CRC32("123456789") = 0xCBF43926 is the standard check value of CRC-32/ISO-HDLC;
// The expected strings below were computed independently (Python's zlib.crc32 and hashlib.sha256).
describe('key format golden vectors', () => {
  it('encodes base62 big-endian with padding', () => {
    expect(base62Encode(0, 6)).toBe('000000');
    expect(base62Encode(61, 2)).toBe('0z');
    expect(base62Encode(62, 2)).toBe('10');
    expect(base62Encode(0xffffffff, 6)).toBe('4gfFC3');
    expect(base62Encode(0xcbf43926, 6)).toBe('3jZRME');
  });

  it('checksums the random part with CRC32', () => {
    expect(checksumOf('123456789')).toBe('3jZRME');
  });

  it('formats, hashes and displays a fixed key', () => {
    const randomPart = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    const secret = formatApiKey(randomPart);
    expect(secret).toBe('svc_live_AbCdEfGhIjKlMnOpQrStUvWxYz0123451HTd0k');
    expect(secret).toHaveLength(9 + 32 + 6);
    expect(isWellFormedApiKey(secret)).toBe(true);
    expect(displayPrefixOf(secret)).toBe('svc_live_AbCd');
    expect(lastFourOf(secret)).toBe('Td0k');
    // SHA-256 over the whole key string (UTF-8).
    expect(Buffer.from(hashApiKey(secret)).toString('hex')).toBe(
      'a872c9acd3b4aa4bb3e0f59155348fa0ffed3abb3da388389f3bf3f3bb0c9e42',
    );
  });

  it('hashes with SHA-256 (NIST vector)', () => {
    expect(Buffer.from(hashApiKey('abc')).toString('hex')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});

describe('key validation without a lookup', () => {
  it('accepts generated keys', () => {
    for (let i = 0; i < 200; i++) expect(isWellFormedApiKey(generateApiKey().secret)).toBe(true);
  });

  it('makes test keys of the same format after their own prefix, and tells the two modes apart', () => {
    const test = generateApiKey('test');
    expect(test.secret).toMatch(/^svc_test_[0-9A-Za-z]{38}$/);
    expect(isWellFormedApiKey(test.secret)).toBe(true);
    expect(test.displayPrefix).toMatch(/^svc_test_[0-9A-Za-z]{4}$/);
    expect(keyModeOf(test.secret)).toBe('test');
    expect(keyModeOf(generateApiKey().secret)).toBe('live');
    expect(keyModeOf('svc_prod_abc')).toBeNull();
  });

  it('rejects a changed character, a wrong prefix, a wrong length and foreign characters', () => {
    const { secret } = generateApiKey();
    const flipped = secret.slice(0, 12) + (secret[12] === 'a' ? 'b' : 'a') + secret.slice(13);
    expect(isWellFormedApiKey(flipped)).toBe(false);
    expect(isWellFormedApiKey(secret.replace('svc_live_', 'svc_prod_'))).toBe(false);
    expect(isWellFormedApiKey(secret + 'a')).toBe(false);
    expect(isWellFormedApiKey(secret.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(secret.slice(0, 20) + '-' + secret.slice(21))).toBe(false);
    expect(isWellFormedApiKey('')).toBe(false);
  });

  it('draws random characters without bias from a fixed byte source', () => {
    // Bytes 248..255 are discarded; 0 → '0', 61 → 'z', 62 → '0', 247 → 247 % 62 = 61 → 'z'.
    const bytes = Buffer.from([255, 0, 61, 62, 248, 247]);
    const source = () => bytes;
    expect(randomBase62(4, source)).toBe('0z0z');
  });
});
