/**
 * The OpenAPI document's frame: info, servers, tags and security schemes. Operations come from the
 * routes' own schemas, completed by the route contract (route-contract.ts). A route's tag must be
 * one of API_TAGS (the document lint checks it).
 */
import { CSRF_HEADER } from '../../src-shared/domain/constants.ts';
import type { CookieSettings } from './viewer.ts';
import { SECURITY_SCHEMES } from './route-contract.ts';

export const API_TAGS = {
  petitions: { name: 'Petitions', description: 'Browse, search, export and create petitions.' },
  signing: { name: 'Signing', description: 'Sign a petition or remove your signature (British Citizens).' },
  statistics: { name: 'Statistics', description: "Figures for the home page, and the administrator's statistics of a term." },
  signIn: { name: 'Sign-in', description: 'Sign in with Roblox (web: cookie; desktop console: bearer token), the session and signing out.' },
  avatars: { name: 'Avatars', description: 'User pictures, served from our own origin.' },
  terms: { name: 'Parliamentary terms', description: 'The terms petitions belong to; the administrator manages them.' },
  petitionAdmin: { name: 'Petition administration', description: 'Assigning terms, overriding statuses and deleting petitions.' },
  response: { name: 'Government responses', description: 'Cabinet Ministers (rank 6) and above.' },
  debate: { name: 'Parliament debates', description: 'The Leader of the House of Commons (rank 7) and above.' },
  site: { name: 'Site status', description: 'Maintenance mode and whether Parliament is in session.' },
  bans: { name: 'Bans', description: 'Users barred from creating petitions (administrator).' },
  audit: { name: 'Audit log', description: 'Every staff action, who did it and what changed (administrator).' },
  reports: { name: 'Reports', description: 'Members report petitions that break the rules; enough reports hide a petition until moderators review it.' },
  moderation: { name: 'Moderation', description: 'The moderation queue, decisions (keep, hide, reject, restore) and rejection reasons: rank 7 and up, and the administrator.' },
  team: { name: 'Working as a team', description: 'Presence and claims on petitions, and the queue summary with its ageing targets (staff).' },
  staffChat: { name: 'Staff chat', description: 'Chat (Discord webhook) messages from staff, queued and delivered in the background.' },
  updates: {
    name: 'My petitions and updates',
    description: 'What a member created or signed, and what happened to it since: the notification centre, mutes and preferences.',
  },
  privacy: { name: 'Your data', description: "Deleting a member's data: by the member, or by the administrator at their request." },
  integrity: { name: 'Signature integrity', description: 'Unusual signing as it happens, and invalidating or restoring signatures with a preview (administrator).' },
} as const;

const DESCRIPTION = [
  'Community petitions service for a Roblox group, modelled on the UK Government and Parliament petitions site.',
  '',
  'Errors are RFC 9457 Problem Details (`application/problem+json`); show `detail`, the sentence meant for a person.',
  `Signed-in calls carry the session cookie (web) or \`Authorization: Bearer <token>\` (desktop console). Unsafe calls with the cookie also send \`${CSRF_HEADER}: 1\`.`,
  'Ids are written in decimal digits only (no sign, leading zero or spaces). Staff writes take `If-Match` and `Idempotency-Key` where noted.',
  '',
  'Generate a typed client with `npx openapi-typescript <server>/api/docs/json -o petitions-api.d.ts` and call it with `openapi-fetch`.',
].join('\n');

export function openApiDocument(options: { serverUrl: string; cookie: CookieSettings }) {
  return {
    openapi: '3.1.0',
    info: { title: 'Petitions API', description: DESCRIPTION, version: '1.0.0' },
    servers: [{ url: options.serverUrl, description: 'This server' }],
    tags: Object.values(API_TAGS).map((tag) => ({ ...tag })),
    components: {
      securitySchemes: {
        [SECURITY_SCHEMES.session]: {
          type: 'apiKey' as const,
          in: 'cookie' as const,
          name: options.cookie.name,
          description: 'The HttpOnly session cookie set by POST /api/auth/roblox/callback (web sign-in).',
        },
        [SECURITY_SCHEMES.bearer]: {
          type: 'http' as const,
          scheme: 'bearer',
          description: 'The session token the desktop console receives from the callback.',
        },
        [SECURITY_SCHEMES.csrf]: {
          type: 'apiKey' as const,
          in: 'header' as const,
          name: CSRF_HEADER,
          description: 'Send the value `1` on every unsafe call that is not made with a bearer token; a cross-site form cannot.',
        },
      },
    },
  };
}
