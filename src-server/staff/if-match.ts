/**
 * Optimistic concurrency for petitions: the offline console replays edits made against a version it
 * saw, and If-Match makes the server refuse them once someone else has changed the petition.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { PetitionRow } from '../db/schema.ts';
import { HttpError } from '../http/problem.ts';
import { toPetition } from '../petitions/petition-record.ts';

export const IF_MATCH_FORMAT_ERROR = 'If-Match must be a petition version such as "3"';

/** Accepts `"3"`, `3` and `W/"3"`, or a comma-separated list of them. Null means "any version" (absent or `*`). */
export function parseIfMatch(header: string | string[] | undefined): number[] | null {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text === undefined || text.trim() === '' || text.trim() === '*') return null;
  return text.split(',').map((part) => {
    const match = /^\s*(?:W\/)?"?(\d{1,15})"?\s*$/.exec(part);
    if (!match?.[1]) throw new HttpError(400, IF_MATCH_FORMAT_ERROR);
    return Number(match[1]);
  });
}

/** Reads the header before any work, so a malformed one is a 400 whatever else the request holds. */
export function expectedVersions(request: FastifyRequest): number[] | null {
  return parseIfMatch(request.headers['if-match']);
}

export function etagOf(version: number): string {
  return `"${version}"`;
}

/** 412 carries the current petition so the console can show what changed without another call. */
export function assertVersion(row: PetitionRow, expected: number[] | null): void {
  if (expected === null || expected.includes(row.version)) return;
  throw new HttpError(412, ERRORS.versionMismatch, { petition: toPetition(row) }, { etag: etagOf(row.version) });
}

/** For replies that carry a petition: its version is the ETag. */
export function petitionVersion(petition: { version: number }): number {
  return petition.version;
}

export function setEtag(reply: FastifyReply, version: number): void {
  reply.header('etag', etagOf(version));
}
