import { afterEach, describe, expect, it } from 'vitest';
import { checkDestinationUrl, destinationKind, resolveDestination } from './destinations';

const lookupTo =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

afterEach(() => {
  delete process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST;
  delete process.env.WEBHOOK_SLACK_HOSTS;
});

describe('webhook destinations', () => {
  it('accept public HTTPS URLs', async () => {
    const check = checkDestinationUrl('https://hooks.example.com/aso');
    expect(check).toMatchObject({ ok: true, kind: 'signed' });
    expect(await resolveDestination(new URL('https://hooks.example.com/aso'), lookupTo('93.184.216.34'))).toEqual({
      ok: true,
      address: '93.184.216.34',
      family: 4,
    });
    expect(
      await resolveDestination(
        new URL('https://hooks.example.com/aso'),
        lookupTo('2606:2800:220:1:248:1893:25c8:1946'),
      ),
    ).toMatchObject({ ok: true, family: 6 });
  });

  it('refuse plain HTTP, credentials and non-URLs', () => {
    expect(checkDestinationUrl('http://hooks.example.com/aso')).toEqual({
      ok: false,
      reason: 'Webhook endpoints must use HTTPS.',
    });
    expect(checkDestinationUrl('https://user:pw@hooks.example.com/')).toMatchObject({ ok: false });
    expect(checkDestinationUrl('not a url')).toMatchObject({ ok: false });
    expect(checkDestinationUrl('http://localhost:8080/hook')).toMatchObject({ ok: false });
  });

  it('refuse loopback, private, link-local and other non-public addresses, literal or resolved, with the reason', async () => {
    const cases: [string, RegExp][] = [
      ['127.0.0.1', /loopback/],
      ['::1', /loopback/],
      ['10.1.2.3', /private/],
      ['172.16.0.5', /private/],
      ['192.168.1.10', /private/],
      ['fd00::1', /private/],
      ['169.254.169.254', /link-local/],
      ['fe80::1', /link-local/],
      ['100.64.0.1', /carrier-grade/],
      ['0.0.0.0', /unspecified/],
      ['::ffff:10.0.0.1', /IPv4-mapped/],
      ['224.0.0.1', /multicast/],
      // Issue 18 §8: IPv4 carried in IPv6, and the rest of IANA's special-purpose registries.
      ['::127.0.0.1', /IPv4-compatible/],
      ['::a9fe:a9fe', /IPv4-compatible/],
      ['::a00:1', /IPv4-compatible/],
      ['::ffff:93.184.216.34', /IPv4-mapped/],
      ['64:ff9b::7f00:1', /NAT64/],
      ['64:ff9b:1::a00:1', /NAT64/],
      ['2002:7f00:1::1', /6to4/],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /Teredo/],
      ['2001:db8::1', /documentation/],
      ['2001:2::1', /IETF protocol/],
      ['100::1', /discard/],
      ['3fff::1', /documentation/],
      ['5f00::1', /SRv6/],
      ['fec0::1', /site-local/],
      ['ff02::1', /multicast/],
      ['4000::1', /outside IPv6 global unicast/],
      ['::', /unspecified/],
      ['192.0.0.8', /IETF protocol/],
      ['192.0.2.1', /documentation/],
      ['198.18.0.1', /benchmarking/],
      ['198.51.100.7', /documentation/],
      ['203.0.113.9', /documentation/],
      ['192.88.99.1', /6to4 relay/],
      ['240.0.0.1', /reserved/],
      ['255.255.255.255', /broadcast/],
    ];
    for (const [address, reason] of cases) {
      const literal = address.includes(':') ? `https://[${address}]/hook` : `https://${address}/hook`;
      const check = checkDestinationUrl(literal);
      expect(check.ok, literal).toBe(false);
      if (!check.ok) expect(check.reason).toMatch(reason);
      const resolved = await resolveDestination(new URL('https://innocent.example.com/hook'), lookupTo(address));
      expect(resolved.ok, address).toBe(false);
      if (!resolved.ok) expect(resolved.reason).toMatch(reason);
    }
    // One bad address among several is enough to refuse (a rebinding answer).
    expect(
      (await resolveDestination(new URL('https://x.example.com/'), lookupTo('93.184.216.34', '10.0.0.1'))).ok,
    ).toBe(false);
    expect(
      await resolveDestination(new URL('https://nowhere.example.com/'), async () =>
        Promise.reject(new Error('ENOTFOUND')),
      ),
    ).toEqual({
      ok: false,
      reason: 'The host name nowhere.example.com does not resolve.',
    });
  });

  it('allow http://localhost and loopback only with the development setting', async () => {
    process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST = 'true';
    expect(checkDestinationUrl('http://localhost:8080/hook')).toMatchObject({ ok: true });
    expect(await resolveDestination(new URL('http://localhost:8080/hook'), lookupTo('127.0.0.1'))).toMatchObject({
      ok: true,
      address: '127.0.0.1',
    });
    expect(checkDestinationUrl('http://example.com/hook')).toMatchObject({ ok: false });
    expect((await resolveDestination(new URL('https://x.example.com/'), lookupTo('192.168.0.1'))).ok).toBe(false);
  });

  it('recognise Slack and Discord incoming webhooks, and test hosts added for them', () => {
    expect(destinationKind(new URL('https://hooks.slack.com/services/T000/B000/XXXX'))).toBe('slack');
    expect(destinationKind(new URL('https://discord.com/api/webhooks/123/abc'))).toBe('discord');
    expect(destinationKind(new URL('https://hooks.slack.com/other'))).toBe('signed');
    process.env.WEBHOOK_SLACK_HOSTS = 'localhost:9999';
    expect(destinationKind(new URL('http://localhost:9999/services/T/B/X'))).toBe('slack');
  });
});
