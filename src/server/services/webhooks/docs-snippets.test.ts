// The verification snippets published on /docs/webhooks accept our signatures and refuse altered ones.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { signatureHeader } from './signing';
import { VERIFICATION_SNIPPETS } from './verification-snippets';

const SECRET = 'whsec_docs-snippet-test-secret';
const BODY = '{"id":"evt_1","type":"webhook.test","createdAt":"2026-11-21T00:00:00.000Z","data":{}}';

describe('published verification snippets', () => {
  const now = Math.floor(Date.now() / 1000);
  const header = signatureHeader([SECRET], now, BODY);
  const stale = signatureHeader([SECRET], now - 600, BODY);

  it('Node.js', async () => {
    const source = VERIFICATION_SNIPPETS.node
      .replace(
        "import { createHmac, timingSafeEqual } from 'node:crypto';",
        "const { createHmac, timingSafeEqual } = require('node:crypto');",
      )
      .replace('export function', 'function');
    const verify = new Function('require', `${source}; return verifyWebhook;`)(require) as (
      body: string,
      header: string,
      secret: string,
    ) => boolean;
    expect(verify(BODY, header, SECRET)).toBe(true);
    expect(verify(BODY + ' ', header, SECRET)).toBe(false);
    expect(verify(BODY, header, 'whsec_other')).toBe(false);
    expect(verify(BODY, stale, SECRET)).toBe(false);
  });

  it('Python', () => {
    const program = `${VERIFICATION_SNIPPETS.python}
import sys
body, header, secret = sys.argv[1].encode(), sys.argv[2], sys.argv[3]
print(verify_webhook(body, header, secret))`;
    const run = (body: string, signature: string, secret: string) =>
      execFileSync('python3', ['-c', program, body, signature, secret], { encoding: 'utf8' }).trim();
    expect(run(BODY, header, SECRET)).toBe('True');
    expect(run(BODY + ' ', header, SECRET)).toBe('False');
    expect(run(BODY, stale, SECRET)).toBe('False');
  });
});
