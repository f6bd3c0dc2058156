/**
 * Members' devices for web push (docs/notifications.md#web-push). Every function takes the member's
 * id from the session and touches only that member's rows: nobody lists, changes or removes another
 * member's devices (an id that is not theirs answers 404, as one that does not exist).
 *
 * A device is its endpoint. Registering an endpoint another member registered before moves it to the
 * new member (the same browser, now signed in as someone else): a device only ever receives the news
 * of whoever registered it last, and the earlier member's queued messages for it are dropped.
 */
import { PUSH_DEVICES_PER_MEMBER_MAX } from '../../src-shared/domain/push-constants.ts';
import type { PushDevice, PushSubscriptionRequest } from '../../src-shared/domain/push-schemas.ts';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/schema.ts';
import { writePushSwitch } from '../feed/member-settings.ts';
import { HttpError } from '../http/problem.ts';
import { isAllowedPushEndpoint, pushServiceOf } from './push-service-origins.ts';

export const PUSH_ERRORS = {
  off: 'Web push is switched off on this site.',
  unknownService: 'This push service is not one this site sends to.',
  deviceNotFound: 'Device not found',
} as const;

interface DeviceRow {
  id: number;
  endpoint: string;
  created_at: string;
  last_delivered_at: string | null;
}

function toDevice(row: DeviceRow): PushDevice {
  return {
    id: row.id,
    endpoint: row.endpoint,
    service: pushServiceOf(row.endpoint),
    createdAt: row.created_at,
    lastDeliveredAt: row.last_delivered_at,
  };
}

export interface RegisterDevice {
  userId: string;
  /** The registering session (sessions.id_hash): signing out of it removes the device. */
  sessionHash: string;
  subscription: PushSubscriptionRequest;
  serviceOrigins: readonly string[];
  now: Date;
}

/** Registers (or refreshes) the member's device; `created` is false when it was theirs already. */
export async function registerDevice(db: Kysely<Database>, input: RegisterDevice): Promise<{ device: PushDevice; created: boolean }> {
  const { userId, subscription, now } = input;
  if (!isAllowedPushEndpoint(subscription.endpoint, input.serviceOrigins)) throw new HttpError(422, PUSH_ERRORS.unknownService);
  const stamp = now.toISOString();
  const expiresAt = subscription.expirationTime ? new Date(subscription.expirationTime).toISOString() : null;
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('push_subscriptions')
      .select(['id', 'user_id'])
      .where('endpoint', '=', subscription.endpoint)
      .executeTakeFirst();
    if (existing && existing.user_id !== userId) {
      // The browser changed hands: what was queued for the previous member is not for this one.
      await trx.deleteFrom('push_deliveries').where('subscription_id', '=', existing.id).execute();
    }
    const fields = {
      user_id: userId,
      p256dh: subscription.keys.p256dh,
      auth: subscription.keys.auth,
      expires_at: expiresAt,
      session_hash: input.sessionHash,
      updated_at: stamp,
    };
    if (existing) {
      await trx.updateTable('push_subscriptions').set(fields).where('id', '=', existing.id).execute();
    } else {
      await trx
        .insertInto('push_subscriptions')
        .values({ ...fields, endpoint: subscription.endpoint, created_at: stamp })
        .execute();
      await dropOldestBeyondLimit(trx, userId);
    }
    await writePushSwitch(trx, userId, true, now);
    const row = await trx
      .selectFrom('push_subscriptions')
      .select(['id', 'endpoint', 'created_at', 'last_delivered_at'])
      .where('endpoint', '=', subscription.endpoint)
      .executeTakeFirstOrThrow();
    return { device: toDevice(row), created: existing?.user_id !== userId };
  });
}

/** A member keeps at most PUSH_DEVICES_PER_MEMBER_MAX devices: the longest-registered ones go first. */
async function dropOldestBeyondLimit(trx: Db, userId: string): Promise<void> {
  const surplus = await trx
    .selectFrom('push_subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .offset(PUSH_DEVICES_PER_MEMBER_MAX)
    .limit(1_000)
    .execute();
  if (surplus.length) await trx.deleteFrom('push_subscriptions').where('id', 'in', surplus.map((row) => row.id)).execute();
}

export async function listDevices(db: Db, userId: string): Promise<PushDevice[]> {
  const rows = await db
    .selectFrom('push_subscriptions')
    .select(['id', 'endpoint', 'created_at', 'last_delivered_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map(toDevice);
}

/** With the member's last device gone, their push switch is off (it is on only while a device listens). */
async function switchOffWhenNoDevice(trx: Db, userIds: readonly string[], now: Date): Promise<void> {
  for (const userId of new Set(userIds)) {
    const left = await trx.selectFrom('push_subscriptions').select('id').where('user_id', '=', userId).executeTakeFirst();
    if (!left) await writePushSwitch(trx, userId, false, now);
  }
}

/** Removes one of the member's devices; 404 for any id that is not theirs. */
export async function removeDevice(db: Kysely<Database>, userId: string, deviceId: number, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('push_subscriptions')
      .where('id', '=', deviceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) throw new HttpError(404, PUSH_ERRORS.deviceNotFound);
    await switchOffWhenNoDevice(trx, [userId], now);
  });
}

/** Signing out: the devices registered in that session stop receiving (docs/notifications.md#web-push). */
export async function removeSessionDevices(db: Kysely<Database>, sessionHash: string, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx.deleteFrom('push_subscriptions').where('session_hash', '=', sessionHash).returning('user_id').execute();
    await switchOffWhenNoDevice(trx, rows.map((row) => row.user_id), now);
    return rows.length;
  });
}

/** The push service says the device is gone (404, 410): forget it and what was queued for it. */
export async function removeGoneDevices(db: Kysely<Database>, deviceIds: readonly number[], now: Date): Promise<void> {
  if (!deviceIds.length) return;
  await db.transaction().execute(async (trx) => {
    const rows = await trx.deleteFrom('push_subscriptions').where('id', 'in', [...deviceIds]).returning('user_id').execute();
    await switchOffWhenNoDevice(trx, rows.map((row) => row.user_id), now);
  });
}
