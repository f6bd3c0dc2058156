// Placeholder: the sign-in module replaces this file.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

export async function registerAuthRoutes(_app: FastifyInstance, _context: AppContext): Promise<void> {}
