import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { webhookMessages } from '../../shared/webhook-messages';
import { AddressRefused, isPublicAddress, resolveWebhookAddresses } from './addresses';
import { newWebhookSecret, webhookHeaders } from './signing';

/** The mechanisms of webhooks: which addresses are public, and Standard Webhooks signatures. */

describe('public addresses', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    '2002:7f00:1::1',
    'not an address',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it.each([
    ['http://127.0.0.1/hook', '127.0.0.1 is a loopback address'],
    ['http://10.1.2.3/hook', '10.1.2.3 is a private address'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254 is a link-local address'],
    ['http://[::1]:8080/hook', '::1 is a loopback address'],
    ['http://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1 is a loopback address'],
    ['http://100.64.0.1/hook', '100.64.0.1 is a carrier-grade NAT address'],
    ['http://0.0.0.0/hook', '0.0.0.0 is an unspecified address'],
  ])('%s is refused as not public unless private addresses are allowed, saying why', async (url, why) => {
    const refusal = await resolveWebhookAddresses(new URL(url), { allowPrivate: false }).catch((e) => e);
    expect(refusal).toBeInstanceOf(AddressRefused);
    expect(refusal).toMatchObject({ reason: 'not-public' });
    // The sentence integrators match on comes first, then the address and how to allow it.
    expect(refusal.message).toBe(
      `${webhookMessages.urlNotPublic}: ${why} (set WEBHOOK_ALLOW_PRIVATE=true to allow it on a closed network)`,
    );
    await expect(resolveWebhookAddresses(new URL(url), { allowPrivate: true })).resolves.toHaveLength(1);
  });

  it('a name is refused with the address it resolves to', async () => {
    const refusal = await resolveWebhookAddresses(new URL('http://localhost:3000/hook'), {
      allowPrivate: false,
    }).catch((e) => e);
    expect(refusal).toMatchObject({ reason: 'not-public' });
    expect(refusal.message).toMatch(
      /^Webhook URL must be a public http\(s\) address: localhost resolves to (127\.0\.0\.1|::1), a loopback address \(set WEBHOOK_ALLOW_PRIVATE=true/,
    );
  });

  it('a name that does not resolve is refused as such, whatever WEBHOOK_ALLOW_PRIVATE says', async () => {
    // RFC 6761: .invalid never resolves, on any network.
    for (const allowPrivate of [false, true]) {
      const refusal = await resolveWebhookAddresses(new URL('https://nothing-here.invalid/hook'), {
        allowPrivate,
      }).catch((e) => e);
      expect(refusal).toBeInstanceOf(AddressRefused);
      expect(refusal).toMatchObject({
        reason: 'unresolved',
        message: 'Could not resolve nothing-here.invalid',
      });
    }
  });

  it('a scheme other than http(s) is refused with the plain sentence', async () => {
    for (const url of ['ftp://8.8.8.8/hook', 'file:///etc/passwd']) {
      const refusal = await resolveWebhookAddresses(new URL(url), { allowPrivate: true }).catch((e) => e);
      expect(refusal).toMatchObject({ reason: 'scheme', message: webhookMessages.urlNotPublic });
    }
  });

  it('a public literal passes; with WEBHOOK_ALLOW_PRIVATE loopback passes too (the scheme is still checked)', async () => {
    expect(await resolveWebhookAddresses(new URL('https://8.8.8.8/x'), { allowPrivate: false })).toEqual([
      { address: '8.8.8.8', family: 4 },
    ]);
    expect(await resolveWebhookAddresses(new URL('http://[::1]/x'), { allowPrivate: true })).toEqual([
      { address: '::1', family: 6 },
    ]);
    await expect(
      resolveWebhookAddresses(new URL('file:///etc/passwd'), { allowPrivate: true }),
    ).rejects.toBeInstanceOf(AddressRefused);
  });
});

describe('Standard Webhooks signatures', () => {
  it('a secret is whsec_ and 32 random bytes in base64; each is new', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('the standardwebhooks library verifies what we sign, and refuses a changed body or another secret', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ type: 'ping', timestamp: new Date().toISOString(), data: {} });
    const headers = webhookHeaders([secret], 'c0ffee00-0000-4000-8000-000000000001', new Date(), body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  it("signs the specification's own example as it says, with the timestamp in whole seconds", () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
    const body = '{"test": 2432232314}';
    // The example of the Standard Webhooks specification, sent 0.9 s into its second.
    expect(webhookHeaders([secret], id, new Date(1614265330_900), body)).toEqual({
      'webhook-id': id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('two secrets: two space-separated signatures, the first secret first; either verifies, a third does not', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const body = JSON.stringify({ type: 'ping', timestamp: new Date().toISOString(), data: {} });
    const id = 'c0ffee00-0000-4000-8000-000000000002';
    const now = new Date();
    const headers = webhookHeaders([current, previous], id, now, body);
    expect(headers['webhook-signature']).toBe(
      `${webhookHeaders([current], id, now, body)['webhook-signature']} ${
        webhookHeaders([previous], id, now, body)['webhook-signature']
      }`,
    );
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });
});
