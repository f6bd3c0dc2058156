/**
 * The chat messages for the staff events of docs/rules.md#chat-notifications: response and debate changes and
 * petition deletion.
 */
import { PAGE_TITLE } from '../../src-shared/domain/constants.ts';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import { debateBoxText } from '../../src-shared/rules/classification.ts';
import { DISCORD_LIMITS, truncateForDiscord, type DiscordWebhookMessage } from './discord-message.ts';

export const CHAT_EVENTS = {
  responseAdded: 'government_response.added',
  responseEdited: 'government_response.edited',
  responseRemoved: 'government_response.removed',
  debateAdded: 'debate.added',
  debateEdited: 'debate.edited',
  debateRemoved: 'debate.removed',
  petitionDeleted: 'petition.deleted',
  allPetitionsDeleted: 'petition.deleted_all',
  staffMessage: 'staff.message',
  /** Members' reports hid a petition (moderation/moderation-messages.ts). */
  petitionHiddenByReports: 'petition.hidden_by_reports',
  /** A petition tripped an unusual-signing rule (integrity/signing-monitor.ts). */
  unusualSigning: 'integrity.unusual_signing',
} as const;
export type ChatEvent = (typeof CHAT_EVENTS)[keyof typeof CHAT_EVENTS];
export type PetitionChatEvent = Exclude<ChatEvent, 'petition.deleted_all' | 'staff.message' | 'petition.hidden_by_reports' | 'integrity.unusual_signing'>;

/** The reason given for a deletion made by staff (docs/rules.md#chat-notifications). */
export const DELETION_REASON = 'Administrative action';

const COLOURS = {
  response: 0x1d70b8,
  debate: 0x6f3c97,
  removed: 0x505a5f,
  deleted: 0xd4351c,
} as const;

const FOOTER_MAX = 200;

const EVENT_HEADINGS: Record<PetitionChatEvent, { heading: string; colour: number }> = {
  'government_response.added': { heading: 'Government response added', colour: COLOURS.response },
  'government_response.edited': { heading: 'Government response updated', colour: COLOURS.response },
  'government_response.removed': { heading: 'Government response removed', colour: COLOURS.removed },
  'debate.added': { heading: 'Parliament debate added', colour: COLOURS.debate },
  'debate.edited': { heading: 'Parliament debate updated', colour: COLOURS.debate },
  'debate.removed': { heading: 'Parliament debate removed', colour: COLOURS.removed },
  'petition.deleted': { heading: 'Petition deleted', colour: COLOURS.deleted },
};

export interface EventActor {
  name: string;
  role: string;
}

export interface PetitionChatEventInput {
  event: PetitionChatEvent;
  /** The petition after the change (before it, for a deletion). */
  petition: Petition;
  actor: EventActor;
  now: Date;
  publicBaseUrl: string | undefined;
}

function petitionUrl(publicBaseUrl: string | undefined, id: number): string | undefined {
  return publicBaseUrl ? `${publicBaseUrl.replace(/\/$/, '')}/petition/${id}` : undefined;
}

function eventDetail(event: PetitionChatEvent, petition: Petition): string {
  switch (event) {
    case 'government_response.added':
    case 'government_response.edited':
      return petition.governmentResponse ?? '';
    case 'debate.added':
    case 'debate.edited': {
      const info = petition.debateInfo;
      if (!info) return '';
      const lines = [debateBoxText(info) ?? '', `Location: ${info.location}`];
      if (info.hansardLink) lines.push(`Hansard: ${info.hansardLink}`);
      return lines.join('\n');
    }
    case 'government_response.removed':
      return 'The government response to this petition was withdrawn.';
    case 'debate.removed':
      return 'The debate information for this petition was withdrawn.';
    case 'petition.deleted':
      return `Reason: ${DELETION_REASON}\nSignatures: ${petition.signatures}`;
  }
}

export function petitionEventMessage(input: PetitionChatEventInput): DiscordWebhookMessage {
  const { heading, colour } = EVENT_HEADINGS[input.event];
  const url = input.event === 'petition.deleted' ? undefined : petitionUrl(input.publicBaseUrl, input.petition.id);
  const detail = eventDetail(input.event, input.petition);
  return {
    embeds: [
      {
        title: truncateForDiscord(`${heading}: ${input.petition.title}`, DISCORD_LIMITS.title),
        description: truncateForDiscord(`**${input.petition.title}**\n\n${detail}`, DISCORD_LIMITS.description),
        color: colour,
        footer: { text: truncateForDiscord(`${PAGE_TITLE} · ${input.actor.name} (${input.actor.role})`, FOOTER_MAX) },
        timestamp: input.now.toISOString(),
        ...(url ? { url } : {}),
      },
    ],
  };
}

export function allPetitionsDeletedMessage(input: { deleted: number; actor: EventActor; now: Date }): DiscordWebhookMessage {
  return {
    embeds: [
      {
        title: 'All petitions deleted',
        description: `${input.deleted} petition(s) were deleted.\nReason: ${DELETION_REASON}`,
        color: COLOURS.deleted,
        footer: { text: truncateForDiscord(`${PAGE_TITLE} · ${input.actor.name} (${input.actor.role})`, FOOTER_MAX) },
        timestamp: input.now.toISOString(),
      },
    ],
  };
}
