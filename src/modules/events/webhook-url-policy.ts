import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup, Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { AppConfig } from '../../config/app.config';
import { WebhookUrlNotAllowedError } from './events.errors';

/**
 * An address a webhook may reach under the strict policy: global unicast only. IPv4-mapped IPv6
 * addresses count as the IPv4 address they carry; every other range ipaddr.js names (private,
 * loopback, link-local, CGNAT, multicast, reserved, unique-local, 6to4, Teredo, NAT64…) is refused.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress()) parsed = parsed.toIPv4Address();
  return parsed.range() === 'unicast';
}

/** The error code of a lookup that found only addresses the policy refuses. */
export const ADDRESS_NOT_ALLOWED = 'EADDRNOTALLOWED';

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * Which URLs the service calls with events, checked when an endpoint is saved and again at every
 * connection. `open` (development) takes `http://` and any host, so the sandbox and tests can
 * receive on localhost. `strict` (production) takes `https://` only, to hosts whose every address
 * is public; and the connection itself resolves the host through `connectLookup`, which hands
 * the socket only public addresses, so a name that resolved to a public address when it was saved
 * and to a private one now (DNS rebinding) fails as an attempt, never reaching the private one.
 */
export class WebhookUrlPolicy {
  private readonly strict: boolean;
  private readonly resolver?: Resolver;

  constructor(config: Pick<AppConfig, 'webhooks'>) {
    this.strict = config.webhooks.urlPolicy === 'strict';
    if (config.webhooks.dnsServers.length > 0) {
      this.resolver = new Resolver({ timeout: 2_000, tries: 2 });
      this.resolver.setServers(config.webhooks.dnsServers);
    }
  }

  /** Refuses (`WebhookUrlNotAllowedError`) a URL the policy does not allow; resolves its host under the strict one. */
  async check(url: string): Promise<void> {
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (!parsed || !['https:', 'http:'].includes(parsed.protocol)) throw new WebhookUrlNotAllowedError('an http(s) URL is needed');
    if (parsed.username || parsed.password) throw new WebhookUrlNotAllowedError('credentials in the URL are not allowed');
    if (!this.strict) return;
    if (parsed.protocol !== 'https:') throw new WebhookUrlNotAllowedError('only https:// URLs are allowed');
    // The WHATWG parser has already turned decimal, octal and hex IPv4 spellings into dotted form.
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(host) ? [host] : await this.resolve(host).catch(() => []);
    if (addresses.length === 0) throw new WebhookUrlNotAllowedError('the host does not resolve');
    if (!addresses.every(isPublicAddress)) throw new WebhookUrlNotAllowedError('the host resolves to a private or reserved address');
  }

  /**
   * Before a connection to `url`: an address literal is checked here (a socket does not look it
   * up); a name is checked by `connectLookup` as the socket resolves it.
   */
  allowsLiteralHost(url: URL): boolean {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    return !this.strict || !isIP(host) || isPublicAddress(host);
  }

  /** The `lookup` of the sockets that deliver events: the host's addresses, only public ones under the strict policy. */
  readonly connectLookup = (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    this.resolve(hostname).then(
      (found) => {
        const allowed = this.strict ? found.filter(isPublicAddress) : found;
        if (allowed.length === 0) {
          const err: NodeJS.ErrnoException = new Error(`${hostname} has no address a webhook may reach`);
          err.code = ADDRESS_NOT_ALLOWED;
          return callback(err, '');
        }
        const entries = allowed.map((address) => ({ address, family: isIP(address) }));
        if (options.all) return callback(null, entries);
        callback(null, entries[0].address, entries[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };

  private async resolve(host: string): Promise<string[]> {
    if (!this.resolver) return (await lookup(host, { all: true })).map((entry) => entry.address);
    const [v4, v6] = await Promise.allSettled([this.resolver.resolve4(host), this.resolver.resolve6(host)]);
    return [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
  }
}
