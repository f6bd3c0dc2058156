/** Builds the HTTP application: plugins, security hooks, and every route module. */
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { registerBackgroundWork } from './background-work.ts';
import type { AppContext } from './context.ts';
import { registerCsrfProtection } from './http/csrf.ts';
import { registerMaintenanceGate } from './http/maintenance.ts';
import { openApiDocument } from './http/openapi-document.ts';
import { apiSchemaRegistry, keepReachableSchemas } from './http/openapi-schemas.ts';
import { registerProblemHandlers } from './http/problem.ts';
import { registerRouteAccess } from './http/route-access.ts';
import { registerRouteContract } from './http/route-contract.ts';
import { registerRateLimits, type RateLimits } from './http/rate-limits.ts';
import { redactUrlCredentials } from './http/log-redaction.ts';
import { registerRouteScopes, routeScope } from './http/route-scope.ts';
import { guardConnections, trustedProxyMatcher, type ConnectionStats } from './http/server-capacity.ts';
import { registerViewer } from './http/viewer.ts';
import { registerWebApp } from './http/web-app.ts';
import { registerAuthRoutes } from './auth/auth-routes.ts';
import { registerPublicRoutes } from './petitions/public-routes.ts';
import { staffRoutes } from './staff/staff-routes.ts';
import { registerHealthRoutes } from './http/health-routes.ts';
import { registerLiveEventsRoutes } from './site/live-events-routes.ts';
import { hasPublicPage } from './petitions/petition-reads.ts';
import { registerFeedRoutes } from './feed/feed-routes.ts';
import { registerPushRoutes } from './push/push-routes.ts';
import { registerMetrics } from './metrics/metrics-routes.ts';

export type ServerApp = FastifyInstance;

declare module 'fastify' {
  interface FastifyInstance {
    /** The per-client rate limits (http/rate-limits.ts); routes call `app.rateLimits.take(name, request)`. */
    rateLimits: RateLimits;
    /** Open connections and refusals (server-capacity.ts), for logs and benchmarks. */
    connectionStats: () => ConnectionStats;
  }
}

/**
 * /api/docs is HTML on the session cookie's origin, so it gets the app pages' protections: no framing
 * (clickjacking), scripts only from our own files. Swagger UI loads nothing from elsewhere and runs
 * no inline script; it does set style attributes (syntax highlighting), hence style-src-attr.
 */
export const API_DOCS_CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  // Swagger UI 5 injects one <style> element; its hash (tests/web-ui/api-docs.test.ts notices a change).
  'style-src': ["'self'", "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='"],
  'style-src-attr': ["'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
};


export interface BuildAppOptions {
  /** Serve dist-web too (the real server does; API tests need not). */
  serveWebApp?: boolean;
  logger?: boolean;
}

export async function buildApp(context: AppContext, options: BuildAppOptions = {}): Promise<ServerApp> {
  const { limits } = context.config;
  const app = Fastify({
    logger:
      options.logger === false || context.config.logLevel === 'silent'
        ? false
        : {
            level: context.config.logLevel,
            // Session tokens, OAuth codes and any credential-like URL parameter never reach the logs.
            redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
            serializers: {
              req: (req: { method: string; url: string; hostname?: string; ip?: string }) => ({
                method: req.method,
                url: redactUrlCredentials(req.url),
                host: req.hostname,
                remoteAddress: req.ip,
              }),
            },
          },
    bodyLimit: context.config.bodyLimitBytes,
    // X-Forwarded-* are believed only from the proxies TRUST_PROXY names (docs/limits.md#who-is-one-client).
    trustProxy: limits.trustProxy.length ? limits.trustProxy : false,
    // docs/limits.md#timeouts: headers within a few seconds, the whole request within tens, idle
    // keep-alive sockets closed; Node checks them every second rather than every 30 s.
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: { headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs, connectionsCheckingInterval: 1_000 },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    return503OnClosing: true,
  });

  app.decorate('connectionStats', guardConnections(app.server, context.capacity, trustedProxyMatcher(limits.trustProxy)));

  // Before any route, so every route (Swagger UI's too) carries the scope the hooks read.
  registerRouteScopes(app);
  registerRouteAccess(app);
  registerRouteContract(app);
  app.setValidatorCompiler(validatorCompiler);
  // Responses are typed by our own code; the zod response schemas document the API without costing a parse per reply.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  registerProblemHandlers(app);

  await app.register(fastifySwagger, {
    openapi: openApiDocument({
      serverUrl: (context.config.publicBaseUrl ?? `http://localhost:${context.config.port}`).replace(/\/+$/, ''),
      cookie: context.cookie,
    }),
    transform: createJsonSchemaTransform({ schemaRegistry: apiSchemaRegistry }),
    transformObject: (document) =>
      keepReachableSchemas(createJsonSchemaTransformObject({ schemaRegistry: apiSchemaRegistry })(document)),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: API_DOCS_CONTENT_SECURITY_POLICY });
  await app.register(fastifyCookie);
  app.decorate('rateLimits', await registerRateLimits(app, limits.rates));

  await context.signatureCounts.recover();
  context.signatureCounts.start((error) => app.log.error({ err: error }, 'writing signature counts failed; kept for the next flush'));
  app.addHook('onClose', () => context.signatureCounts.stop());
  registerBackgroundWork(app, context);

  registerViewer(app, { sessions: context.sessions, cookie: context.cookie, adminUserId: context.config.adminUserId });
  registerCsrfProtection(app, context.config.publicBaseUrl);
  registerMaintenanceGate(app, context.siteSettings);

  // Replies finished while shutting down close their connection, so close() need not wait for idle keep-alives.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    if (routeScope(request).api && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });

  registerHealthRoutes(app, context, () => closing);
  registerMetrics(app, context);

  await registerAuthRoutes(app, context);
  await registerPublicRoutes(app, context);
  await app.register(staffRoutes, { context });
  registerFeedRoutes(app, context);
  registerPushRoutes(app, context);
  registerLiveEventsRoutes(app, context);

  if (options.serveWebApp) {
    await registerWebApp(app, context.config.webDistDir, {
      // Hidden petitions and those rejected for a hidden reason are not there for the public (docs/moderation.md).
      petitionExists: (id) => hasPublicPage(context.db, id),
    });
  }
  return app;
}
