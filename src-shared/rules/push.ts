/**
 * Web push rules written once (docs/notifications.md#web-push): what a push message says about an
 * event (the server builds it) and how the service worker shows it.
 */
import type { PetitionEventKind } from '../domain/feed-constants.ts';
import { PUSH_PAYLOAD_VERSION } from '../domain/push-constants.ts';
import type { PushPayload } from '../domain/push-schemas.ts';

/** Longest petition title a notification carries (titles are short already; this bounds the payload). */
const TITLE_MAX = 200;

export interface PushEventFacts {
  eventId: number;
  kind: PetitionEventKind;
  petitionId: number;
  petitionTitle: string;
  /** feedEventSummary of the event: the same line the notification centre shows. */
  summary: string;
  at: string;
}

export function pushPayload(facts: PushEventFacts): PushPayload {
  const title = facts.petitionTitle.length > TITLE_MAX ? `${facts.petitionTitle.slice(0, TITLE_MAX - 1)}…` : facts.petitionTitle;
  return {
    v: PUSH_PAYLOAD_VERSION,
    eventId: facts.eventId,
    kind: facts.kind,
    petition: { id: facts.petitionId, title },
    summary: facts.summary,
    url: `/petition/${facts.petitionId}`,
    at: facts.at,
  };
}

export interface PushNotificationContent {
  title: string;
  body: string;
  /**
   * One notification per event: a message that reaches the device twice (sent again after a node
   * died mid-delivery) replaces the first instead of showing a second.
   */
  tag: string;
}

/** "Petition 12: Light every village green" / "Government responded on 3 December 2026". */
export function pushNotificationContent(payload: PushPayload): PushNotificationContent {
  return {
    title: `Petition ${payload.petition.id}: ${payload.petition.title}`,
    body: payload.summary,
    tag: `petition-event-${payload.eventId}`,
  };
}
