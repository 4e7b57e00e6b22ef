// Which names a request's Host header may carry (the DNS-rebinding defence): loopback names and addresses, the listen host, an extra allow-list.
import { isIPv4, isIPv6 } from 'node:net';
import os from 'node:os';

/** What the gateway answers to, besides the loopback names and addresses that are always allowed. */
export interface HostPolicy {
  /** The host the gateway listens on (`--host`); a wildcard (`0.0.0.0`, `::`) stands for this machine's own addresses. */
  listenHost: string;
  /** Extra names or addresses (`--allowed-hosts`), normalized by `normalizeHostName`. */
  allowedHosts: readonly string[];
}

/** A Host header value: a name or IPv4 address, or a bracketed IPv6 address, each with an optional port. Anything else is refused. */
const HOST_HEADER = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/;

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);

/**
 * A host name or address in the form matching compares: lower case, no trailing dot, IPv6 without brackets and
 * in canonical form (`0:0::1` → `::1`). Returns undefined for text that is not a host name or address.
 */
export function normalizeHostName(text: string): string | undefined {
  const trimmed = text.trim().toLowerCase().replace(/\.$/, '');
  const bare = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed;
  // The usual names are canonical already (Node's isIPv4 takes only dotted-decimal without leading zeros): no URL to parse per request.
  if (bare === 'localhost' || isIPv4(bare)) return bare;
  if (isIPv6(bare)) return new URL(`http://[${bare}]`).hostname.slice(1, -1);
  if (!/^[a-z0-9.-]+$/.test(bare) || bare === '' || bare.startsWith('.') || bare.includes('..')) return undefined;
  try {
    // The URL parser gives the canonical form of numeric IPv4 spellings (`127.1` → `127.0.0.1`), as a browser sends it.
    return new URL(`http://${bare}`).hostname;
  } catch {
    return undefined;
  }
}

/** The host name of a Host header value (port dropped), normalized; undefined when the header is malformed. */
export function hostNameOf(header: string): string | undefined {
  if (!HOST_HEADER.test(header)) return undefined;
  const name = header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : header.replace(/:\d+$/, '');
  return normalizeHostName(name);
}

/** True for `localhost`, any `*.localhost` name (RFC 6761: they all mean this machine), `127.0.0.0/8` and `::1`. */
export function isLoopbackName(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIPv4(name)) return name.startsWith('127.');
  return name === '::1';
}

/** This machine's own interface addresses, normalized (for a gateway listening on every interface). */
function ownAddresses(): Set<string> {
  const addresses = new Set<string>();
  for (const list of Object.values(os.networkInterfaces())) {
    for (const entry of list ?? []) {
      const name = normalizeHostName(entry.address.replace(/%.*$/, ''));
      if (name) addresses.add(name);
    }
  }
  return addresses;
}

/**
 * Whether a request whose Host header is `header` may be served, and why: `named` when the policy alone allows the
 * name (loopback, an allowed host, the listen host: the same answer for the same header and policy), `interface` when
 * it names one of this machine's addresses now (a wildcard listen host; the interfaces may change), or `refused`. Any
 * port is accepted: DNS rebinding changes which address a name points to, never the name a browser puts in Host, so
 * only the name matters. A request with no Host header at all (HTTP/1.0) is accepted: every browser sends one, so such
 * a request cannot come from a web page.
 */
export function hostVerdict(header: string | undefined, policy: HostPolicy): 'named' | 'interface' | 'refused' {
  if (header === undefined) return 'named';
  const name = hostNameOf(header);
  if (name === undefined) return 'refused';
  if (isLoopbackName(name) || policy.allowedHosts.includes(name)) return 'named';
  // The listen host itself, wildcards included: the URL the gateway prints (http://0.0.0.0:8790) must work in a browser too.
  const listen = normalizeHostName(policy.listenHost) ?? policy.listenHost;
  if (name === listen) return 'named';
  return WILDCARD_HOSTS.has(listen) && ownAddresses().has(name) ? 'interface' : 'refused';
}
