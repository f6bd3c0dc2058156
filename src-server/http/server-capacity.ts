/**
 * How many sockets this process may hold, and who may hold them (docs/limits.md#connections): the
 * totals come from the process's file-descriptor limit, read at start, so open connections and
 * event streams can never take the descriptors the database, the log and new clients need; and no
 * single client address may hold more than its share, so one client filling the total cannot lock
 * everyone else out.
 */
import fs from 'node:fs';
import type { Server, Socket } from 'node:net';
import { BlockList, isIP } from 'node:net';
import type { LimitsConfig } from '../config.ts';
import { clientKey } from './client-address.ts';

/** Descriptors assumed where the limit cannot be read (the common default soft limit). */
const ASSUMED_FD_LIMIT = 1024;
/** Share of the descriptors open connections may hold; the rest are for the database, files and logs. */
const CONNECTIONS_SHARE = 0.8;
/** Share of the descriptors event streams may hold: they are connections too, and last for hours. */
const STREAMS_SHARE = 0.5;

/** The soft limit on open files of this process (Linux /proc), or null where it cannot be read. */
export function readOpenFileLimit(limitsFile = '/proc/self/limits'): number | null {
  try {
    const line = fs.readFileSync(limitsFile, 'utf8').split('\n').find((row) => row.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    if (soft === 'unlimited') return Number.MAX_SAFE_INTEGER;
    const value = Number(soft);
    return Number.isSafeInteger(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

export interface ServerCapacity {
  /** What was read at start (null: unknown, ASSUMED_FD_LIMIT used). */
  fdLimit: number | null;
  connectionsTotal: number;
  connectionsPerClient: number;
  streamsTotal: number;
}

export function serverCapacity(limits: LimitsConfig, fdLimit: number | null = readOpenFileLimit()): ServerCapacity {
  const descriptors = fdLimit ?? ASSUMED_FD_LIMIT;
  const connectionsTotal = limits.connectionsTotal ?? Math.max(64, Math.floor(descriptors * CONNECTIONS_SHARE));
  const streamsTotal = Math.min(limits.streamsTotal ?? Math.max(16, Math.floor(descriptors * STREAMS_SHARE)), connectionsTotal);
  return { fdLimit, connectionsTotal, connectionsPerClient: Math.min(limits.connectionsPerClient, connectionsTotal), streamsTotal };
}

/** proxy-addr's range names as subnets, so TRUST_PROXY means the same here as in Fastify. */
const NAMED_RANGES: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']],
  linklocal: [['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']],
  uniquelocal: [['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['fc00::', 7, 'ipv6']],
};

/** Whether an address is one of the trusted proxies (their connections carry many clients). */
export function trustedProxyMatcher(trustProxy: readonly string[]): (address: string | undefined) => boolean {
  if (trustProxy.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of trustProxy) {
    for (const [network, bits, family] of NAMED_RANGES[entry] ?? []) list.addSubnet(network, bits, family);
    if (NAMED_RANGES[entry]) continue;
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return (address) => {
    if (!address) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    const plain = mapped ?? address;
    return list.check(plain, isIP(plain) === 6 ? 'ipv6' : 'ipv4');
  };
}

export interface ConnectionStats {
  open: number;
  refusedPerClient: number;
  refusedTotal: number;
  clients: number;
}

/**
 * Counts the sockets of each client address and closes, at once, a new one over the client's share
 * or over the total. Nothing can be answered on such a socket without reading a request from it (a
 * reply written first would race the server's own parser), so it is closed like a refused
 * connection; the request-level limits answer 429/503 with Retry-After.
 */
export function guardConnections(
  server: Server,
  capacity: Pick<ServerCapacity, 'connectionsTotal' | 'connectionsPerClient'>,
  isTrustedProxy: (address: string | undefined) => boolean,
): () => ConnectionStats {
  const perClient = new Map<string, number>();
  let open = 0;
  let refusedPerClient = 0;
  let refusedTotal = 0;
  server.on('connection', (socket: Socket) => {
    if (open >= capacity.connectionsTotal) {
      refusedTotal += 1;
      socket.destroy();
      return;
    }
    // A proxy's connections carry many clients: the proxy limits them (deploy/nginx.conf), the total still holds.
    const key = isTrustedProxy(socket.remoteAddress) ? null : clientKey(socket.remoteAddress);
    const held = key === null ? 0 : (perClient.get(key) ?? 0);
    if (key !== null && held >= capacity.connectionsPerClient) {
      refusedPerClient += 1;
      socket.destroy();
      return;
    }
    open += 1;
    if (key !== null) perClient.set(key, held + 1);
    socket.once('close', () => {
      open -= 1;
      if (key === null) return;
      const left = (perClient.get(key) ?? 1) - 1;
      if (left <= 0) perClient.delete(key);
      else perClient.set(key, left);
    });
  });
  return () => ({ open, refusedPerClient, refusedTotal, clients: perClient.size });
}
