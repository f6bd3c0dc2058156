/**
 * The member's side of petition events (docs/notifications.md#the-api): My petitions, the
 * notification centre (feed, unread count, marking read), mutes and preferences, all under /api/me/
 * and all answering only about the signed-in member; and the staff forms' "This will notify N signers".
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EventId,
  FeedPageSchema,
  FeedPreferencesPatchBody,
  FeedPreferencesSchema,
  FeedQuery,
  MarkAllReadBody,
  MuteStateSchema,
  MutedPetitionsSchema,
  MyPetitionsResultSchema,
  MyPetitionsQuery,
  NotificationAudienceQuery,
  NotificationAudienceSchema,
  UnreadCountSchema,
} from '../../src-shared/domain/feed-schemas.ts';
import { PetitionId } from '../../src-shared/domain/schemas.ts';
import type { AppContext } from '../context.ts';
import { API_TAGS } from '../http/openapi-document.ts';
import { SIGNED_IN } from '../http/route-access.ts';
import { problems } from '../http/route-contract.ts';
import { PANEL_STAFF } from '../staff/staff-access.ts';
import { requirePetition } from '../petitions/petition-reads.ts';
import { readFeed, unreadCount } from './member-feed.ts';
import { listMutedPetitions, markAllRead, markEventRead, mutePetition, readPreferences, unmutePetition, updatePreferences } from './member-settings.ts';
import { listMyPetitions } from './my-petitions.ts';
import { notificationAudience } from './recipients.ts';

const TAG = API_TAGS.updates.name;
const EventParams = z.strictObject({ id: EventId });
const PetitionParams = z.strictObject({ id: PetitionId });
const ONLY_YOURS = 'Answers only about the signed-in member; nobody can read another member\'s.';

export function registerFeedRoutes(app: FastifyInstance, context: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  /** After a member's own change, their other tabs on this node follow at once (others: on the next event). */
  const refreshStreams = (userId: string) => void context.live.refreshMember(userId).catch(() => undefined);
  const unreadOf = async (userId: string) => ({ unread: await unreadCount(context.db, userId) });

  typed.get(
    '/api/me/petitions',
    {
      config: { access: SIGNED_IN },
      schema: {
        operationId: 'listMyPetitions',
        tags: [TAG],
        summary: 'My petitions: the ones I created, or signed',
        description:
          '`list=created` or `list=signed`, newest first (by creation, or by when I signed), paged. Each carries its status, ' +
          `signature count, whether I stopped updates for it, and its latest event ("Government responded on 3 December 2026"). ${ONLY_YOURS}`,
        querystring: MyPetitionsQuery,
        response: { 200: MyPetitionsResultSchema, ...problems(400) },
      },
    },
    async (request) => listMyPetitions(context.db, context.signatureCounts, request.viewerFor(SIGNED_IN).user.id, request.query),
  );

  typed.get(
    '/api/me/notifications',
    {
      config: { access: SIGNED_IN },
      schema: {
        operationId: 'listNotifications',
        tags: [TAG],
        summary: 'My notifications, newest first',
        description:
          'Events of the petitions I created or signed (for a signer: since they signed), minus muted petitions and topics switched ' +
          'off, with the unread count. Page with `before=<nextBefore>`. ' +
          ONLY_YOURS,
        querystring: FeedQuery,
        response: { 200: FeedPageSchema, ...problems(400) },
      },
    },
    async (request) => readFeed(context.db, request.viewerFor(SIGNED_IN).user.id, request.query),
  );

  typed.get(
    '/api/me/notifications/unread-count',
    {
      config: { access: SIGNED_IN },
      schema: {
        operationId: 'getUnreadNotificationCount',
        tags: [TAG],
        summary: 'How many of my notifications are unread',
        description: 'The live stream (`/api/site-status/events`) also carries it, as `unread` events.',
        response: { 200: UnreadCountSchema },
      },
    },
    async (request) => unreadOf(request.viewerFor(SIGNED_IN).user.id),
  );

  typed.post(
    '/api/me/notifications/:id/read',
    {
      config: { access: SIGNED_IN },
      schema: {
        operationId: 'markNotificationRead',
        tags: [TAG],
        summary: 'Mark one of my notifications read',
        description: `404 when the id is not one of my notifications (whoever else's it may be). Answers the new unread count.`,
        params: EventParams,
        response: { 200: UnreadCountSchema, ...problems(404) },
      },
    },
    async (request) => {
      const userId = request.viewerFor(SIGNED_IN).user.id;
      await markEventRead(context.db, userId, request.params.id, context.now());
      refreshStreams(userId);
      return unreadOf(userId);
    },
  );

  typed.post(
    '/api/me/notifications/read-all',
    {
      config: { access: SIGNED_IN },
      schema: {
        operationId: 'markAllNotificationsRead',
        tags: [TAG],
        summary: 'Mark all my notifications read',
        description:
          'Everything up to `upTo` (the newest notification I saw, so one arriving meanwhile stays unread), or everything so far. ' +
          'Answers the new unread count.',
        body: MarkAllReadBody,
        response: { 200: UnreadCountSchema },
      },
    },
    async (request) => {
      const userId = request.viewerFor(SIGNED_IN).user.id;
      await markAllRead(context.db, userId, request.body.upTo, context.now());
      refreshStreams(userId);
      return unreadOf(userId);
    },
  );

  typed.get(
    '/api/me/notification-preferences',
    {
      config: { access: SIGNED_IN },
      schema: {
        operationId: 'getNotificationPreferences',
        tags: [TAG],
        summary: 'Which topics I hear about, and whether to push them',
        response: { 200: FeedPreferencesSchema },
      },
    },
    async (request) => readPreferences(context.db, request.viewerFor(SIGNED_IN).user.id),
  );

  typed.patch(
    '/api/me/notification-preferences',
    {
      config: { access: SIGNED_IN },
      schema: {
        operationId: 'updateNotificationPreferences',
        tags: [TAG],
        summary: 'Switch topics (and web push) on or off',
        description: 'Only what is sent changes. A topic switched off leaves my feed and my unread count at once, and returns when switched on.',
        body: FeedPreferencesPatchBody,
        response: { 200: FeedPreferencesSchema },
      },
    },
    async (request) => {
      const userId = request.viewerFor(SIGNED_IN).user.id;
      const preferences = await updatePreferences(context.db, userId, request.body, context.now());
      refreshStreams(userId);
      return preferences;
    },
  );

  typed.get(
    '/api/me/muted-petitions',
    {
      config: { access: SIGNED_IN },
      schema: {
        operationId: 'listMutedPetitions',
        tags: [TAG],
        summary: 'The petitions I stopped updates for',
        response: { 200: MutedPetitionsSchema },
      },
    },
    async (request) => listMutedPetitions(context.db, request.viewerFor(SIGNED_IN).user.id),
  );

  typed.put(
    '/api/me/muted-petitions/:id',
    {
      config: { access: SIGNED_IN },
      schema: {
        operationId: 'mutePetition',
        tags: [TAG],
        summary: 'Stop updates for this petition',
        description: 'Its events leave my feed and unread count; doing it twice is the same as once.',
        params: PetitionParams,
        response: { 200: MuteStateSchema, ...problems(404) },
      },
    },
    async (request) => {
      const userId = request.viewerFor(SIGNED_IN).user.id;
      await mutePetition(context.db, userId, request.params.id, context.now());
      refreshStreams(userId);
      return { petitionId: request.params.id, muted: true };
    },
  );

  typed.delete(
    '/api/me/muted-petitions/:id',
    {
      config: { access: SIGNED_IN },
      schema: {
        operationId: 'unmutePetition',
        tags: [TAG],
        summary: 'Hear about this petition again',
        params: PetitionParams,
        response: { 200: MuteStateSchema },
      },
    },
    async (request) => {
      const userId = request.viewerFor(SIGNED_IN).user.id;
      await unmutePetition(context.db, userId, request.params.id, context.now());
      refreshStreams(userId);
      return { petitionId: request.params.id, muted: false };
    },
  );

  typed.get(
    '/api/petitions/:id/notification-audience',
    {
      config: { access: PANEL_STAFF },
      schema: {
        operationId: 'getNotificationAudience',
        tags: [TAG],
        summary: 'How many signers an event of this topic would notify now (staff)',
        description:
          'For the response and debate forms ("This will notify 1,234 signers"): the signers, minus those who stopped updates for ' +
          'the petition or switched the topic off, minus you. While moderation hides or rejects the petition, only its creator hears ' +
          'of it (0 or 1).',
        params: PetitionParams,
        querystring: NotificationAudienceQuery,
        response: { 200: NotificationAudienceSchema, ...problems(404) },
      },
    },
    async (request) => {
      const viewer = request.viewerFor(PANEL_STAFF);
      const petition = await requirePetition(context.db, request.params.id);
      const signers = await notificationAudience(context.db, {
        petitionId: petition.id,
        signatures: context.signatureCounts.live(petition.id, petition.signature_count),
        topic: request.query.topic,
        viewerId: viewer.user.id,
      });
      return { petitionId: petition.id, topic: request.query.topic, signers };
    },
  );
}
