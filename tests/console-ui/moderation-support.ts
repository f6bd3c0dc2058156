/**
 * What the moderation journeys share: members who report petitions over real HTTP (each a citizen
 * with a web session made by the server's own session service, sending the CSRF header as the web
 * app does), and public reads of a petition as a guest.
 */
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import type { ReportReason } from '../../src-shared/domain/moderation-constants.ts';
import type { Stack } from '../support/stack.ts';

let nextMember = 3100;

export interface Report {
  reason: ReportReason;
  details?: string;
}

/** A new citizen's web session cookie (users 3100 and up, never a dev persona). */
export async function newMember(stack: Stack): Promise<{ id: string; cookie: string }> {
  const id = String(nextMember++);
  await stack.context.users.upsert({ id, username: `member${id}`, displayName: `Member ${id}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 });
  const { token } = await stack.context.sessions.create(id, 'web');
  return { id, cookie: `${stack.context.cookie.name}=${token}` };
}

/** Each report from a new member, one after the other; every one must be accepted (201). */
export async function reportAsMembers(stack: Stack, petitionId: number, reports: readonly Report[]): Promise<void> {
  for (const report of reports) {
    const member = await newMember(stack);
    const response = await fetch(`${stack.baseUrl}/api/petitions/${petitionId}/reports`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [CSRF_HEADER]: CSRF_HEADER_VALUE, cookie: member.cookie },
      body: JSON.stringify(report),
    });
    if (response.status !== 201) throw new Error(`report by ${member.id} answered ${response.status}: ${await response.text()}`);
  }
}

/** A guest's GET of a public API path: the status and the body. */
export async function publicRead<T = Record<string, unknown>>(stack: Stack, path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${stack.baseUrl}${path}`);
  return { status: response.status, body: (await response.json()) as T };
}

/** Whether the public petition list (newest first, search by title) shows the petition. */
export async function inPublicList(stack: Stack, petition: { id: number; title: string }): Promise<boolean> {
  const { body } = await publicRead<{ items: { id: number }[] }>(stack, `/api/petitions?${new URLSearchParams({ search: petition.title, pageSize: '50' })}`);
  return body.items.some((item) => item.id === petition.id);
}
