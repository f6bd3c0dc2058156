// Placeholder: the staff module replaces this file.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

export async function registerStaffRoutes(_app: FastifyInstance, _context: AppContext): Promise<void> {}
