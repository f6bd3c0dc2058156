/** The chat message staff get when members' reports hide a petition (docs/moderation.md#thresholds). */
import { PAGE_TITLE } from '../../src-shared/domain/constants.ts';
import { REPORT_REASON_LABELS, REPORT_REASONS, type ReportReason } from '../../src-shared/domain/moderation-constants.ts';
import { APP_PATHS } from '../../src-shared/domain/app-paths.ts';
import { DISCORD_LIMITS, truncateForDiscord, type DiscordWebhookMessage } from './discord-message.ts';

const HIDDEN_COLOUR = 0xf47738;

export interface HiddenByReportsInput {
  petition: { id: number; title: string };
  /** The open reports' reasons, one entry per report. */
  reasons: readonly ReportReason[];
  now: Date;
  publicBaseUrl: string | undefined;
}

export function hiddenByReportsMessage(input: HiddenByReportsInput): DiscordWebhookMessage {
  const counts = REPORT_REASONS.map((reason) => [reason, input.reasons.filter((r) => r === reason).length] as const).filter(([, n]) => n > 0);
  const lines = [
    `**${input.petition.title}** (petition #${input.petition.id}) is hidden until a moderator reviews it.`,
    '',
    `Reports: ${input.reasons.length}`,
    ...counts.map(([reason, n]) => `• ${REPORT_REASON_LABELS[reason]}: ${n}`),
  ];
  const base = input.publicBaseUrl?.replace(/\/$/, '');
  return {
    embeds: [
      {
        title: truncateForDiscord(`Petition hidden by reports: ${input.petition.title}`, DISCORD_LIMITS.title),
        description: truncateForDiscord(lines.join('\n'), DISCORD_LIMITS.description),
        color: HIDDEN_COLOUR,
        footer: { text: truncateForDiscord(`${PAGE_TITLE} · members' reports`, 200) },
        timestamp: input.now.toISOString(),
        ...(base ? { url: `${base}${APP_PATHS.moderation}` } : {}),
      },
    ],
  };
}
