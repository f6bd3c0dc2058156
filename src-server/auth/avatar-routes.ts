/**
 * GET /avatar/{userId}: the user's Roblox headshot, fetched server-side from the URL their last
 * sign-in gave us and kept in memory for an hour, so browsers never talk to Roblox's CDN and a
 * page of signers costs Roblox nothing. Falls back to an initials SVG.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UserId } from '../../src-shared/domain/schemas.ts';
import type { AppContext } from '../context.ts';
import { API_TAGS } from '../http/openapi-document.ts';
import { PUBLIC } from '../http/route-access.ts';
import { AVATAR_PATH_PREFIX } from '../users/user-repository.ts';
import { initialsSvg } from './initials-avatar.ts';

const CACHE_TTL_MS = 60 * 60 * 1000;
/** A failing image host is asked again after this long, not on every page view. */
const FAILURE_TTL_MS = 5 * 60 * 1000;
const MAX_CACHE_ENTRIES = 2_000;
const MAX_IMAGE_BYTES = 512 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
/** Raster formats only: an SVG from elsewhere could carry script into our origin. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

export const AVATAR_CACHE_CONTROL = 'public, max-age=3600';

interface Image {
  body: Buffer;
  contentType: string;
}

interface CacheEntry {
  image: Image | null;
  expiresAt: number;
}

async function download(url: string): Promise<Image | null> {
  let response: Response;
  try {
    // No redirects: the stored URL is the address Roblox gave us, and nothing else is fetched.
    response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error', headers: { accept: 'image/*' } });
  } catch {
    return null;
  }
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const declaredLength = Number(response.headers.get('content-length') ?? '0');
  if (!response.ok || !IMAGE_TYPES.has(contentType) || declaredLength > MAX_IMAGE_BYTES) {
    await response.body?.cancel();
    return null;
  }
  try {
    const body = Buffer.from(await response.arrayBuffer());
    return body.length > 0 && body.length <= MAX_IMAGE_BYTES ? { body, contentType } : null;
  } catch {
    return null;
  }
}

export function createAvatarCache(now: () => number = Date.now) {
  const entries = new Map<string, CacheEntry>();
  const inFlight = new Map<string, Promise<Image | null>>();

  function remember(url: string, image: Image | null): void {
    if (entries.size >= MAX_CACHE_ENTRIES) {
      // Maps iterate in insertion order: the first key is the oldest entry.
      const oldest = entries.keys().next().value;
      if (oldest !== undefined) entries.delete(oldest);
    }
    entries.set(url, { image, expiresAt: now() + (image ? CACHE_TTL_MS : FAILURE_TTL_MS) });
  }

  return {
    async get(url: string): Promise<Image | null> {
      const cached = entries.get(url);
      if (cached && cached.expiresAt > now()) return cached.image;
      let flight = inFlight.get(url);
      if (!flight) {
        flight = download(url)
          .then((image) => {
            remember(url, image);
            return image;
          })
          .finally(() => inFlight.delete(url));
        inFlight.set(url, flight);
      }
      return flight;
    },
    size: () => entries.size,
  };
}

export function registerAvatarRoutes(app: FastifyInstance, context: AppContext): void {
  const cache = createAvatarCache();

  app.withTypeProvider<ZodTypeProvider>().get(
    `${AVATAR_PATH_PREFIX}:userId`,
    {
      config: { access: PUBLIC },
      schema: {
        operationId: 'getAvatar',
        tags: [API_TAGS.avatars.name],
        summary: "A user's avatar: their Roblox headshot, or an initials SVG",
        params: z.strictObject({ userId: UserId }),
        response: {
          200: {
            description: 'The Roblox headshot (PNG, JPEG, WebP or GIF), or an initials SVG.',
            content: Object.fromEntries(
              ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/svg+xml'].map((type) => [type, { schema: z.unknown() }]),
            ),
          },
        },
      },
    },
    async (request, reply) => {
      const { userId } = request.params;
      const user = await context.users.find(userId);
      reply.header('cache-control', AVATAR_CACHE_CONTROL);
      const url = user?.avatar_url;
      if (url && /^https?:\/\//i.test(url)) {
        const image = await cache.get(url);
        if (image) return reply.type(image.contentType).send(image.body);
      }
      // Our own markup; still, an SVG opened directly must not be able to run anything.
      reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
      return reply.type('image/svg+xml; charset=utf-8').send(initialsSvg(userId, user?.display_name ?? user?.username ?? '?'));
    },
  );
}
