import { isForbiddenAddress } from '../../shared/net/address-policy';
import {
  checkOutboundUrl,
  isAllowedHost,
  type OutboundPolicy,
} from '../../shared/net/outbound-url';
import { AppError } from '../../shared/errors';

/** Which addresses and URLs outbound calls may reach (docs/spec/contract.md §7). */

describe('isForbiddenAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.1.2.3', 'loopback /8'],
    ['10.0.0.1', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12, low edge'],
    ['172.31.255.255', 'private 172.16/12, high edge'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.169.254', 'cloud metadata (link-local)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'this network 0/8'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved 240/4'],
    ['192.0.2.1', 'documentation TEST-NET-1'],
    ['198.51.100.7', 'documentation TEST-NET-2'],
    ['203.0.113.9', 'documentation TEST-NET-3'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fc00::1', 'IPv6 unique-local'],
    ['fd00:ec2::254', 'AWS IPv6 metadata'],
    ['ff02::1', 'IPv6 multicast'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['2001:2::1', 'IPv6 benchmarking'],
    ['fec0::1', 'IPv6 site-local'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback in hex'],
    ['::ffff:0:a00:1', 'IPv4-translated (RFC 6145)'],
    ['::7f00:1', 'IPv4-compatible loopback'],
    ['64:ff9b::a00:1', 'NAT64 of a private address'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b:1::808:808', 'local-use NAT64 prefix'],
    ['2002:a00:1::1', '6to4 of a private address'],
    ['2002:a9fe:a9fe::1', '6to4 of the metadata address'],
    ['2001::1', 'Teredo'],
    ['[::1]', 'bracketed IPv6 loopback'],
    ['0x7f.1', 'non-dotted-quad IPv4 spelling'],
    ['2130706433', 'decimal IPv4 spelling'],
    ['localhost', 'a name, not an address'],
    ['', 'empty'],
    ['1.2.3.4.5', 'garbage'],
  ])('refuses %s (%s)', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    ['8.8.8.8', 'public IPv4'],
    ['1.1.1.1', 'public IPv4'],
    ['172.15.255.255', 'just below 172.16/12'],
    ['172.32.0.1', 'just above 172.16/12'],
    ['100.63.255.255', 'just below CGNAT'],
    ['2606:4700:4700::1111', 'public IPv6'],
    ['::ffff:8.8.8.8', 'IPv4-mapped public'],
    ['64:ff9b::808:808', 'NAT64 of a public address (DNS64)'],
    ['2002:808:808::1', '6to4 of a public address'],
  ])('allows %s (%s)', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });
});

describe('isAllowedHost', () => {
  it('compares case-insensitively and IPv6 with or without brackets, in any spelling', () => {
    expect(isAllowedHost('LocalHost', ['localhost'])).toBe(true);
    expect(isAllowedHost('[::1]', ['::1'])).toBe(true);
    expect(isAllowedHost('::1', ['[0:0:0:0:0:0:0:1]'])).toBe(true);
    expect(isAllowedHost('localhost.', ['localhost'])).toBe(false);
    expect(isAllowedHost('sub.localhost', ['localhost'])).toBe(false);
    expect(isAllowedHost('127.0.0.1', [])).toBe(false);
  });
});

describe('checkOutboundUrl', () => {
  const strict: OutboundPolicy = { allowedHosts: [] };
  const dev: OutboundPolicy = { allowedHosts: ['127.0.0.1', 'localhost'] };

  async function refusal(url: string, policy = strict): Promise<AppError> {
    const error = await checkOutboundUrl(url, policy, 'endpointUrl').then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    if (!(error instanceof AppError)) throw new Error(`${url} was not refused with an AppError`);
    return error;
  }

  it.each([
    ['http://2130706433/', 'must use https'],
    ['https://2130706433/', 'host is not a public address'],
    ['https://0x7f000001/', 'host is not a public address'],
    ['https://0x7f.1/', 'host is not a public address'],
    ['https://[::ffff:127.0.0.1]/', 'host is not a public address'],
    ['https://[::1]:8443/hook', 'host is not a public address'],
    ['https://169.254.169.254/latest/meta-data', 'host is not a public address'],
    ['https://localhost/', 'host is not a public address'],
    ['https://LOCALHOST:8443/', 'host is not a public address'],
    ['http://example.com/', 'must use https'],
    ['ftp://example.com/file', 'must use https'],
    ['file:///etc/passwd', 'must use https'],
    ['https://user:pass@example.com/', 'must not contain credentials'],
    ['https://user@example.com/', 'must not contain credentials'],
    ['not a url', 'must be an absolute URL'],
    ['/relative/path', 'must be an absolute URL'],
    ['https://no-such-host.invalid/', 'host does not resolve'],
  ])('refuses %s with invalid_url (%s)', async (url, reason) => {
    const error = await refusal(url);
    expect(error.code).toBe('invalid_url');
    expect(error.status).toBe(400);
    expect(error.message).toBe(`endpointUrl: ${reason}`);
  });

  it('refuses a URL longer than 2048 characters', async () => {
    const url = `https://localhost/${'a'.repeat(2048 - 'https://localhost/'.length)}`;
    expect(url).toHaveLength(2048);
    await expect(checkOutboundUrl(url, dev)).resolves.toBeInstanceOf(URL);
    expect((await refusal(`${url}a`, dev)).message).toBe(
      'endpointUrl: must be at most 2048 characters',
    );
  });

  it('names the field "url" by default', async () => {
    await expect(checkOutboundUrl('http://example.com/', strict)).rejects.toThrow(
      'url: must use https',
    );
  });

  it('still refuses schemes and credentials for allow-listed hosts', async () => {
    expect((await refusal('ftp://127.0.0.1/', dev)).message).toBe('endpointUrl: must use https');
    expect((await refusal('http://a:b@localhost:1234/', dev)).message).toBe(
      'endpointUrl: must not contain credentials',
    );
  });

  it('refuses a loopback spelling that is not the allow-listed one', async () => {
    // 127.0.0.2 is loopback but only 127.0.0.1 is listed.
    expect((await refusal('http://127.0.0.2:1234/', dev)).message).toBe(
      'endpointUrl: must use https',
    );
    expect((await refusal('https://127.0.0.2:1234/', dev)).message).toBe(
      'endpointUrl: host is not a public address',
    );
  });

  it.each([
    'http://127.0.0.1:1234/x',
    'http://localhost:1234',
    'https://localhost:1234/hook?x=1',
    'http://2130706433:1234/',
  ])('accepts %s when the host is allow-listed, plain http included', async (url) => {
    const parsed = await checkOutboundUrl(url, dev, 'endpointUrl');
    expect(parsed).toBeInstanceOf(URL);
    expect(['127.0.0.1', 'localhost']).toContain(parsed.hostname);
  });

  it('accepts an allow-listed IPv6 literal written with or without brackets', async () => {
    const parsed = await checkOutboundUrl('http://[::1]:8080/', { allowedHosts: ['::1'] });
    expect(parsed.hostname).toBe('[::1]');
    await expect(
      checkOutboundUrl('http://[::1]:8080/', { allowedHosts: ['[::1]'] }),
    ).resolves.toBeInstanceOf(URL);
  });

  it('accepts a public IP literal over https without an allow-list', async () => {
    const parsed = await checkOutboundUrl('https://8.8.8.8/hook', strict);
    expect(parsed.href).toBe('https://8.8.8.8/hook');
  });
});
