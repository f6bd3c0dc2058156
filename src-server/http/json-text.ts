/** Replies the route already holds as JSON text (a cached page, a reply spliced from stored JSON). */
import type { FastifyReply } from 'fastify';

/**
 * Fastify sends text with a JSON content type as it is, without serialising it again. The route's
 * zod response schema still documents the shape; the text must match it (the route's tests check).
 */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}
