// Placeholder: the public petitions module replaces this file.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

export async function registerPublicRoutes(_app: FastifyInstance, _context: AppContext): Promise<void> {}
