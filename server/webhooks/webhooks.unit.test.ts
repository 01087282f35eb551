import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { AddressRefused, isPublicAddress, resolveWebhookAddresses } from './addresses';
import { newWebhookSecret, signWebhook, webhookHeaders } from './signing';

/** The mechanisms of webhooks (issue 20): which addresses are public, and Standard Webhooks signatures. */

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
    'http://127.0.0.1/hook',
    'http://10.1.2.3/hook',
    'https://169.254.169.254/latest/meta-data',
    'http://[::1]:8080/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://localhost:3000/hook',
    'http://nothing-here.invalid/hook',
    'ftp://8.8.8.8/hook',
  ])('%s is refused unless private addresses are allowed', async (url) => {
    await expect(resolveWebhookAddresses(new URL(url), { allowPrivate: false })).rejects.toBeInstanceOf(
      AddressRefused,
    );
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
    const headers = webhookHeaders(secret, 'c0ffee00-0000-4000-8000-000000000001', new Date(), body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('signs "id.timestamp.body" with HMAC-SHA256 keyed by the secret bytes, as the library does', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
    const timestamp = 1614265330;
    const body = '{"test": 2432232314}';
    // The example of the Standard Webhooks specification.
    expect(signWebhook(secret, id, timestamp, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(new Webhook(secret).sign(id, new Date(timestamp * 1000), body)).toBe(
      signWebhook(secret, id, timestamp, body),
    );
  });
});
