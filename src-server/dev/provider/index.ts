import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type JWK } from 'oidc-provider';
import { createDirectory } from './directory.ts';
import { createInteractionRoutes } from './interaction-routes.ts';
import { buildProviderConfiguration } from './provider-config.ts';
import { createRobloxApiRoutes, type GroupApiFailureMode } from './roblox-api-routes.ts';
import { DEV_CITIZEN_GROUP_ID, DEV_GOVERNMENT_GROUP_ID } from './personas.ts';

export {
  DEV_ADMIN_USER_ID,
  DEV_CITIZEN_GROUP_ID,
  DEV_GOVERNMENT_GROUP_ID,
  DEV_PERSONAS,
  type DevPersona,
} from './personas.ts';
export type { GroupApiFailureMode } from './roblox-api-routes.ts';

export interface DevProviderOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Defaults to 127.0.0.1: the provider accepts any click as a login, so keep it off the network. */
  host?: string;
  clients: { client_id: string; client_secret: string; redirect_uris: string[] }[];
  citizenGroupId?: string;
  governmentGroupId?: string;
  logger?: { info(msg: string): void };
}

export interface DevProvider {
  /** `http://HOST:PORT/oauth/`, with the trailing slash Roblox's issuer has (openid-client compares it exactly). */
  issuer: string;
  /** `http://HOST:PORT`, the stand-in for https://apis.roblox.com (and the legacy groups/thumbnails hosts). */
  apiBase: string;
  /** Makes the Open Cloud group endpoints fail, to exercise the server's retry/backoff paths. */
  setGroupApiFailure(mode: GroupApiFailureMode): void;
  close(): Promise<void>;
}

const OAUTH_MOUNT = '/oauth';

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startDevProvider(options: DevProviderOptions): Promise<DevProvider> {
  if (process.env.NODE_ENV === 'production') throw new Error('The development OpenID provider must never run in production');

  const host = options.host ?? '127.0.0.1';
  const logger = options.logger;
  const logError = (message: string) => (logger ? logger.info(message) : console.error(message));
  const directory = createDirectory({
    citizenGroupId: options.citizenGroupId ?? DEV_CITIZEN_GROUP_ID,
    governmentGroupId: options.governmentGroupId ?? DEV_GOVERNMENT_GROUP_ID,
  });

  // The issuer embeds the port, so the socket must be bound before the Provider exists;
  // requests arriving in between get a 503 rather than a crash.
  let dispatch: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | undefined;
  const server = createServer((req, res) => {
    if (!dispatch) {
      res.writeHead(503, { 'Retry-After': '1' });
      res.end();
      return;
    }
    dispatch(req, res).catch((error: unknown) => {
      logError(`dev-provider: unhandled error for ${req.method} ${req.url}: ${error instanceof Error ? error.stack : String(error)}`);
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ code: 'INTERNAL', message: 'Internal error in the development provider.' }));
      } else {
        res.destroy();
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const { port } = server.address() as AddressInfo;
  const apiBase = `http://${urlHost(host)}:${port}`;
  const issuer = `${apiBase}${OAUTH_MOUNT}/`;

  try {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const signingKey: JWK = { ...(await exportJWK(privateKey)), alg: 'ES256', use: 'sig', kid: `dev-${randomBytes(6).toString('hex')}` } as JWK;

    const provider = new Provider(issuer, buildProviderConfiguration({
      clients: options.clients,
      directory,
      apiBase,
      signingKey,
      cookieKeys: [randomBytes(32).toString('base64url')],
    }));
    provider.on('server_error', (_ctx: unknown, error: Error) => logError(`dev-provider: ${error.stack ?? error.message}`));

    let groupApiFailure: GroupApiFailureMode = 'none';
    const providerCallback = provider.callback();
    const handleInteraction = createInteractionRoutes({ provider, directory, log: (m) => logger?.info(m) });
    const handleRobloxApi = createRobloxApiRoutes({ provider, directory, apiBase, groupApiFailure: () => groupApiFailure });

    dispatch = async (req, res) => {
      const rawUrl = req.url ?? '/';
      if (rawUrl === OAUTH_MOUNT || rawUrl.startsWith(`${OAUTH_MOUNT}/`) || rawUrl.startsWith(`${OAUTH_MOUNT}?`)) {
        // oidc-provider routes relative to its mount point but derives absolute URLs (e.g. the
        // interaction resume URL) from originalUrl minus url, as Express would set them.
        Object.assign(req, { originalUrl: rawUrl });
        req.url = rawUrl.slice(OAUTH_MOUNT.length) || '/';
        if (req.url.startsWith('?')) req.url = `/${req.url}`;
        await providerCallback(req, res);
        return;
      }
      const url = new URL(rawUrl, apiBase);
      if (await handleInteraction(req, res, url.pathname)) return;
      if (await handleRobloxApi(req, res, url)) return;
      res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ code: 'NOT_FOUND', message: `No development route for ${url.pathname}` }));
    };

    logger?.info(`dev-provider: development OpenID provider (stand-in for Roblox) listening, issuer ${issuer}`);

    return {
      issuer,
      apiBase,
      setGroupApiFailure(mode) {
        groupApiFailure = mode;
      },
      close() {
        return new Promise<void>((resolve, reject) => {
          server.close((error) => (error ? reject(error) : resolve()));
          // Keep-alive sockets (undici's pool) would otherwise hold close() open for seconds.
          server.closeAllConnections();
        });
      },
    };
  } catch (error) {
    server.close();
    throw error;
  }
}
