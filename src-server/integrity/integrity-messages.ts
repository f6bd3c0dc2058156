/** The staff chat message for a petition that tripped unusual-signing rules (docs/integrity.md#unusual-signing). */
import { PAGE_TITLE } from '../../src-shared/domain/constants.ts';
import { ruleExplanation, UNUSUAL_SIGNING_RULE_LABELS, type UnusualSigningRule } from '../../src-shared/rules/unusual-signing.ts';
import { DISCORD_LIMITS, truncateForDiscord as truncate, type DiscordWebhookMessage } from '../staff-chat/discord-message.ts';
import type { PetitionFigures } from './signing-figures.ts';

const WARNING_COLOUR = 0xf47738;

export function unusualSigningMessage(input: {
  figures: PetitionFigures;
  rules: readonly UnusualSigningRule[];
  now: Date;
  publicBaseUrl: string | undefined;
}): DiscordWebhookMessage {
  const { figures } = input;
  const lines = input.rules.map((rule) => `• ${UNUSUAL_SIGNING_RULE_LABELS[rule]}: ${ruleExplanation(rule, figures)}`);
  const url = input.publicBaseUrl ? `${input.publicBaseUrl.replace(/\/$/, '')}/petition/${figures.petitionId}` : undefined;
  return {
    embeds: [
      {
        title: truncate(`Unusual signing: ${figures.title}`, DISCORD_LIMITS.title),
        description: truncate(
          `**${figures.title}** (petition ${figures.petitionId}, ${figures.signatures} signatures)\n\n${lines.join('\n')}\n\n` +
            'Review it on the unusual-signing screen; invalidate signatures there if they are not genuine.',
          DISCORD_LIMITS.description,
        ),
        color: WARNING_COLOUR,
        footer: { text: truncate(`${PAGE_TITLE} · signing monitor`, 200) },
        timestamp: input.now.toISOString(),
        ...(url?.startsWith('https://') ? { url } : {}),
      },
    ],
  };
}
