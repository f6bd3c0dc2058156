/** Errors as RFC 9457 Problem Details. The web app and console read `detail`. */
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { VALIDATION } from '../../src-shared/domain/messages.ts';
import { isDatabaseUnavailable, unavailableDetail } from '../db/unavailable.ts';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export class HttpError extends Error {
  readonly statusCode: number;
  readonly detail: string;
  readonly extras: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(statusCode: number, detail: string, extras: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(detail);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.detail = detail;
    this.extras = extras;
    this.headers = headers;
  }
}

export function problemBody(status: number, detail: string, extras: Record<string, unknown> = {}) {
  return {
    type: 'about:blank',
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    ...extras,
  };
}

/**
 * The product's own sentences (docs/rules.md#texts-and-messages), shown as they are whichever zod check
 * produced them (e.g. `.min(1, VALIDATION.x)`).
 */
const SPEC_MESSAGES: ReadonlySet<string> = new Set(Object.values(VALIDATION));

interface FieldIssue {
  field: string;
  message: string;
}

function issuesFromValidation(error: FastifyError): FieldIssue[] {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return error.validation.map((v) => {
      const field = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || String(error.validationContext ?? 'body');
      // Custom issues carry the product's own sentence; others get the field name in front.
      const verbatim = v.keyword === 'custom' || SPEC_MESSAGES.has(v.message ?? '');
      const message = verbatim ? (v.message ?? 'Invalid value') : `${field}: ${v.message ?? 'invalid value'}`;
      return { field, message };
    });
  }
  return [{ field: 'body', message: error.message }];
}

export function registerProblemHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      reply.headers(error.headers);
      return reply
        .code(error.statusCode)
        .type('application/problem+json')
        .send(problemBody(error.statusCode, error.detail, error.extras));
    }
    if (error.validation) {
      const errors = issuesFromValidation(error);
      return reply
        .code(400)
        .type('application/problem+json')
        .send(problemBody(400, errors[0]?.message ?? 'Invalid request', { errors }));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const detail =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? 'The request body is not valid JSON'
          : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'The request body is too large'
            : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
              ? 'Send the request body as application/json'
              : error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
                ? 'The request body is empty'
                : error.message;
      return reply.code(status).type('application/problem+json').send(problemBody(status, detail));
    }
    if (isDatabaseUnavailable(error)) {
      const detail = unavailableDetail(error);
      request.log.warn({ err: error }, detail);
      return reply.code(503).header('retry-after', '2').type('application/problem+json').send(problemBody(503, detail));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).type('application/problem+json').send(problemBody(500, 'Something went wrong on our side'));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).type('application/problem+json').send(problemBody(404, `No route for ${request.method} ${request.url.split('?')[0]}`));
  });
}
