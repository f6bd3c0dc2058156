/**
 * The named per-client rate limits of src-shared/rules/limits.ts, counted with @fastify/rate-limit
 * (fixed windows in an LRU map per limit, in this process: docs/limits.md#rate-limits says why
 * per node). A route asks `limits.take(name, request)` where it wants the limit counted (before the
 * work it protects, after validation when only valid calls should count); past the limit that
 * caller alone gets 429 with Retry-After and the limit's text.
 *
 * Who is counted: the signed-in user where there is one, else the client address (client-address.ts);
 * a limit declared `perClient` always counts the address (sign-in has no user yet).
 */
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RATE_LIMIT_MESSAGES, type RateLimitName, type RateLimitRule } from '../../src-shared/rules/limits.ts';
import { clientKey } from './client-address.ts';
import { HttpError } from './problem.ts';

/** Keys kept per limit; the least recently seen client is forgotten first (it starts a new window). */
const KEYS_PER_LIMIT = 50_000;

/** Limits that count the client address even for a signed-in caller. */
const PER_CLIENT_ONLY: ReadonlySet<RateLimitName> = new Set(['signIn']);

export interface RateLimits {
  /** Counts one call against `name` for this caller; throws the 429 once the caller is past it. */
  take(name: RateLimitName, request: FastifyRequest): Promise<void>;
  /** The limit in force (null: switched off), for start-up logs and benchmarks. */
  rule(name: RateLimitName): RateLimitRule | null;
}

/** Whom a limit counts for this request: `user:<id>` or `client:<address>`. */
export function rateLimitKey(name: RateLimitName, request: FastifyRequest): string {
  const user = PER_CLIENT_ONLY.has(name) ? undefined : request.viewer?.user.id;
  return user ? `user:${user}` : `client:${clientKey(request.ip)}`;
}

export async function registerRateLimits(app: FastifyInstance, rules: Record<RateLimitName, RateLimitRule | null>): Promise<RateLimits> {
  // global: false: only what a route asks for is counted; nothing is added to other routes.
  await app.register(fastifyRateLimit, { global: false, cache: KEYS_PER_LIMIT });
  const checkers = new Map<RateLimitName, ReturnType<FastifyInstance['createRateLimit']>>();
  for (const [name, rule] of Object.entries(rules) as [RateLimitName, RateLimitRule | null][]) {
    if (!rule) continue;
    checkers.set(
      name,
      app.createRateLimit({ max: rule.max, timeWindow: rule.windowMs, keyGenerator: (request) => rateLimitKey(name, request) }),
    );
  }
  return {
    async take(name, request) {
      const check = checkers.get(name);
      if (!check) return;
      const result = await check(request);
      if (result.isAllowed || !result.isExceeded) return;
      throw new HttpError(429, RATE_LIMIT_MESSAGES[name], {}, { 'retry-after': String(Math.max(1, result.ttlInSeconds)) });
    },
    rule: (name) => rules[name],
  };
}
