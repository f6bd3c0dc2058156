/**
 * Web push over HTTP (docs/notifications.md#web-push): the key a browser subscribes with, and the
 * signed-in member's own devices (register, list, remove). Every device route answers only about
 * the signed-in member; an id of anyone else's device is "not found".
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PUSH_DEVICES_PER_MEMBER_MAX } from '../../src-shared/domain/push-constants.ts';
import { PushConfigSchema, PushDeviceId, PushDeviceSchema, PushDevicesSchema, PushSubscriptionBody } from '../../src-shared/domain/push-schemas.ts';
import type { AppContext } from '../context.ts';
import { API_TAGS } from '../http/openapi-document.ts';
import { HttpError } from '../http/problem.ts';
import { PUBLIC, SIGNED_IN } from '../http/route-access.ts';
import { problems } from '../http/route-contract.ts';
import { listDevices, PUSH_ERRORS, registerDevice, removeDevice } from './subscriptions.ts';

const TAG = API_TAGS.updates.name;
const DeviceParams = z.strictObject({ id: PushDeviceId });
const RemovedSchema = z.object({ id: z.number().int(), removed: z.literal(true) });

export function registerPushRoutes(app: FastifyInstance, context: AppContext): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/push/config',
    {
      config: { access: PUBLIC },
      schema: {
        operationId: 'getPushConfig',
        tags: [TAG],
        summary: 'Whether this site sends web push, and its VAPID public key',
        description: 'The key is the `applicationServerKey` a browser subscribes with (RFC 8292). `enabled: false`: the site sends no web push.',
        response: { 200: PushConfigSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return { enabled: context.webPush !== null, publicKey: context.webPush?.publicKey ?? null };
    },
  );

  typed.get(
    '/api/me/push-subscriptions',
    {
      config: { access: SIGNED_IN },
      schema: {
        operationId: 'listPushSubscriptions',
        tags: [TAG],
        summary: 'My devices that receive web push',
        description: 'Only my own; the web app finds this browser among them by its endpoint.',
        response: { 200: PushDevicesSchema },
      },
    },
    async (request) => ({ items: await listDevices(context.db, request.viewerFor(SIGNED_IN).user.id) }),
  );

  typed.post(
    '/api/me/push-subscriptions',
    {
      config: { access: SIGNED_IN },
      schema: {
        operationId: 'savePushSubscription',
        tags: [TAG],
        summary: 'Receive web push on this device',
        description:
          'The body is the browser’s `PushSubscription.toJSON()`. Turns my web push on. 201 when the device is new to me, 200 when it was ' +
          `mine already (its keys refreshed). A device registered by another member becomes mine. At most ${PUSH_DEVICES_PER_MEMBER_MAX} ` +
          'devices: the oldest goes. Signing out of this session removes it. 409 when the site sends no web push; 422 when the endpoint ' +
          'is not at a push service this site sends to.',
        body: PushSubscriptionBody,
        response: { 200: PushDeviceSchema, 201: PushDeviceSchema, ...problems(409, 422) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(SIGNED_IN);
      if (!context.webPush) throw new HttpError(409, PUSH_ERRORS.off);
      const { device, created } = await registerDevice(context.db, {
        userId: viewer.user.id,
        sessionHash: viewer.session.id_hash,
        subscription: request.body,
        serviceOrigins: context.webPush.serviceOrigins,
        now: context.now(),
      });
      return reply.code(created ? 201 : 200).send(device);
    },
  );

  typed.delete(
    '/api/me/push-subscriptions/:id',
    {
      config: { access: SIGNED_IN },
      schema: {
        operationId: 'deletePushSubscription',
        tags: [TAG],
        summary: 'Stop web push on one of my devices',
        description: 'Its queued messages go with it; with my last device gone, my web push is off. 404 for an id that is not one of my devices.',
        params: DeviceParams,
        response: { 200: RemovedSchema, ...problems(404) },
      },
    },
    async (request) => {
      const userId = request.viewerFor(SIGNED_IN).user.id;
      await removeDevice(context.db, userId, request.params.id, context.now());
      return { id: request.params.id, removed: true as const };
    },
  );
}
