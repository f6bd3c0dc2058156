/**
 * Who "one client" is for the per-client limits (docs/limits.md#who-is-one-client): the address
 * of the socket's peer, or, only when that peer is one of the proxies named in TRUST_PROXY, the
 * address the proxy wrote in X-Forwarded-For. An IPv6 client is its /64 (one home or device gets a
 * whole /64, so single addresses would let it take the limits 2^64 times).
 */
import { isIP } from 'node:net';
import { normalizeIP } from '@fastify/rate-limit';

/** proxy-addr's names for address ranges (Fastify passes TRUST_PROXY to it). */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length || !address) return false;
  const family = isIP(address);
  if (!family) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY as a list: comma-separated addresses, CIDR ranges and range names. A number of hops
 * or `true` is refused: trusting whoever connects lets any client choose its own address.
 */
export function parseTrustedProxies(value: string | undefined): string[] {
  if (!value) return [];
  const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  const wrong = entries.filter((entry) => !isAddressOrRange(entry));
  if (wrong.length) {
    throw new Error(
      `TRUST_PROXY names the proxies in front of this server (addresses, CIDR ranges, loopback, linklocal or uniquelocal), not: ${wrong.join(', ')}`,
    );
  }
  return entries;
}

/** The key one client's counts are kept under: an IPv4 address, or an IPv6 address's /64. */
export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  try {
    return normalizeIP(address, 64);
  } catch {
    return address.toLowerCase();
  }
}
