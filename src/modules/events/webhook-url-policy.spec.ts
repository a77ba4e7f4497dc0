import { WebhookUrlNotAllowedError } from './events.errors';
import { isPublicAddress, WebhookUrlPolicy } from './webhook-url-policy';

const policy = (urlPolicy: 'strict' | 'open') =>
  new WebhookUrlPolicy({
    webhooks: { urlPolicy, dnsServers: [], retryScheduleMs: [], timeoutMs: 1, disableAfterMs: 1, concurrency: 1, endpointConcurrency: 1 },
  });

describe('the webhook URL policy', () => {
  it('takes global unicast addresses only, an IPv4-mapped IPv6 address as the IPv4 it carries', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.216.34']) expect(isPublicAddress(address)).toBe(true);
    const refused = [
      '10.0.0.1', // private
      '172.16.5.4',
      '192.168.1.1',
      '127.0.0.1', // loopback
      '169.254.169.254', // link-local (cloud metadata)
      '100.64.0.1', // CGNAT
      '224.0.0.1', // multicast
      '240.0.0.1', // reserved
      '255.255.255.255',
      '0.0.0.0',
      '192.0.2.1', // documentation
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.1.2.3',
      '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
      '2002:7f00:1::', // 6to4 of 127.0.0.1
      '2001:db8::1',
      'not-an-address',
    ];
    for (const address of refused) expect([address, isPublicAddress(address)]).toEqual([address, false]);
  });

  it('refuses, under the strict policy, plain HTTP and every spelling of a forbidden address', async () => {
    const strict = policy('strict');
    const forbidden = [
      'http://93.184.216.34/hooks',
      'https://127.0.0.1/hooks',
      'https://2130706433/hooks', // decimal 127.0.0.1
      'https://0x7f000001/hooks', // hex
      'https://0177.0.0.1/hooks', // octal
      'https://0x7f.1/hooks',
      'https://127.1/hooks',
      'https://[::1]/hooks',
      'https://[::ffff:127.0.0.1]/hooks',
      'https://[::ffff:7f00:1]/hooks',
      'https://[fe80::1]/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://100.100.100.200/hooks',
      'https://10.0.0.8:8443/hooks',
      'https://localhost/hooks',
      'https://user:pass@93.184.216.34/hooks',
      'ftp://93.184.216.34/hooks',
      'not a url',
    ];
    for (const url of forbidden) expect([url, await strict.check(url).catch((err: unknown) => err)]).toEqual([url, expect.any(WebhookUrlNotAllowedError)]);
    await expect(strict.check('https://93.184.216.34/hooks')).resolves.toBeUndefined();
    await expect(strict.check('https://[2606:4700:4700::1111]/hooks')).resolves.toBeUndefined();
  });

  it('lets development reach localhost over plain HTTP', async () => {
    await expect(policy('open').check('http://127.0.0.1:4000/hooks')).resolves.toBeUndefined();
    await expect(policy('open').check('http://localhost:4000/hooks')).resolves.toBeUndefined();
    await expect(policy('open').check('ftp://127.0.0.1/hooks')).rejects.toBeInstanceOf(WebhookUrlNotAllowedError);
  });

  it('checks an address literal before connecting, since a socket does not look one up', () => {
    expect(policy('strict').allowsLiteralHost(new URL('https://[::ffff:127.0.0.1]/'))).toBe(false);
    expect(policy('strict').allowsLiteralHost(new URL('https://2130706433/'))).toBe(false);
    expect(policy('strict').allowsLiteralHost(new URL('https://93.184.216.34/'))).toBe(true);
    expect(policy('strict').allowsLiteralHost(new URL('https://hooks.acme.example/'))).toBe(true);
    expect(policy('open').allowsLiteralHost(new URL('http://127.0.0.1/'))).toBe(true);
  });
});
