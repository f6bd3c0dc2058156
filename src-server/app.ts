/** Builds the HTTP application: plugins, security hooks, and every route module. */
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext } from './context.ts';
import { registerCsrfProtection } from './http/csrf.ts';
import { registerMaintenanceGate } from './http/maintenance.ts';
import { registerProblemHandlers } from './http/problem.ts';
import { registerViewer } from './http/viewer.ts';
import { registerWebApp } from './http/web-app.ts';
import { registerAuthRoutes } from './auth/auth-routes.ts';
import { registerPublicRoutes } from './petitions/public-routes.ts';
import { registerStaffRoutes } from './staff/staff-routes.ts';
import { registerHealthRoutes } from './http/health-routes.ts';

export type App = FastifyInstance;

/** Authorization codes and state must not reach the logs, even on the web app's callback route. */
export function redactOAuthParameters(url: string): string {
  return url.replace(/([?&](?:code|state|iss|session_token)=)[^&#]*/g, '$1[redacted]');
}

export interface BuildAppOptions {
  /** Serve dist-web too (the real server does; API tests need not). */
  serveWebApp?: boolean;
  logger?: boolean;
}

export async function buildApp(context: AppContext, options: BuildAppOptions = {}): Promise<App> {
  const app = Fastify({
    logger:
      options.logger === false || context.config.logLevel === 'silent'
        ? false
        : {
            level: context.config.logLevel,
            // Session tokens and OAuth codes never reach the logs.
            redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
            serializers: {
              req: (req: { method: string; url: string; hostname?: string; ip?: string }) => ({
                method: req.method,
                url: redactOAuthParameters(req.url),
                host: req.hostname,
                remoteAddress: req.ip,
              }),
            },
          },
    bodyLimit: context.config.bodyLimitBytes,
    trustProxy: Boolean(context.config.publicBaseUrl),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    return503OnClosing: true,
  });

  app.setValidatorCompiler(validatorCompiler);
  // Responses are typed by our own code; the zod response schemas document the API without costing a parse per reply.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  registerProblemHandlers(app);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Petitions API',
        description:
          'Community petitions service. Errors are RFC 9457 Problem Details; read `detail`. Unsafe calls need the `x-petitions-csrf: 1` header.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: context.cookie.name },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  await app.register(fastifyCookie);

  await context.signatureCounts.recover();
  context.signatureCounts.start((error) => app.log.error({ err: error }, 'writing signature counts failed; kept for the next flush'));
  app.addHook('onClose', () => context.signatureCounts.stop());

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
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });

  registerHealthRoutes(app, context, () => closing);

  await registerAuthRoutes(app, context);
  await registerPublicRoutes(app, context);
  await registerStaffRoutes(app, context);

  if (options.serveWebApp) await registerWebApp(app);
  return app;
}
