/**
 * Web push fixtures: VAPID keys for a test server, and members' devices written straight to the
 * database (subscriptions made at the local push service), for tests and the benchmark that need
 * thousands of them. Registering one device through the API is tested in tests/server-api/push-delivery.test.ts.
 */
import type { Kysely } from 'kysely';
import webpush from 'web-push';
import type { Database } from '../../src-server/db/schema.ts';
import type { LocalPushService, LocalSubscription } from './local-push-service.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export function vapidKeys(): VapidKeys {
  return webpush.generateVAPIDKeys();
}

/** The environment of a server node that sends web push to the local push service. */
export function pushEnvironment(keys: VapidKeys, service: LocalPushService): Record<string, string> {
  return {
    WEB_PUSH: 'on',
    VAPID_PUBLIC_KEY: keys.publicKey,
    VAPID_PRIVATE_KEY: keys.privateKey,
    VAPID_SUBJECT: 'mailto:push-tests@example.org',
    PUSH_SERVICE_ORIGINS: service.origin,
  };
}

/** One device per member, with web push on, subscribed at the local push service. */
export async function seedPushDevices(
  db: Kysely<Database>,
  service: LocalPushService,
  keys: VapidKeys,
  userIds: readonly string[],
): Promise<LocalSubscription[]> {
  const stamp = new Date().toISOString();
  const subscriptions = userIds.map(() => service.subscribe(keys.publicKey));
  for (let start = 0; start < userIds.length; start += 500) {
    const ids = userIds.slice(start, start + 500);
    await db
      .insertInto('push_subscriptions')
      .values(
        ids.map((userId, index) => {
          const { json } = subscriptions[start + index]!;
          return { user_id: userId, endpoint: json.endpoint, p256dh: json.keys.p256dh, auth: json.keys.auth, created_at: stamp, updated_at: stamp };
        }),
      )
      .execute();
    await db
      .insertInto('feed_read_state')
      .values(ids.map((userId) => ({ user_id: userId, read_up_to: 0, push_enabled: 1, version: 1, updated_at: stamp })))
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ push_enabled: 1 }))
      .execute();
  }
  return subscriptions;
}
