/**
 * Discord's webhook message format, limited to what we send: embeds with a title, description,
 * colour, footer, timestamp and link. Limits are Discord's documented ones, so a message we
 * accept is never refused by Discord for its size.
 */
import { z } from 'zod';
import { isHttpsUrl } from '../../src-shared/rules/validation.ts';

export const DISCORD_LIMITS = {
  embeds: 10,
  title: 256,
  description: 4096,
  footerText: 2048,
  /** Sum of every title, description and footer text across all embeds of one message. */
  totalCharacters: 6000,
} as const;

export const DiscordEmbedSchema = z
  .strictObject({
    title: z.string().max(DISCORD_LIMITS.title, `An embed title is at most ${DISCORD_LIMITS.title} characters`).optional(),
    description: z
      .string()
      .max(DISCORD_LIMITS.description, `An embed description is at most ${DISCORD_LIMITS.description} characters`)
      .optional(),
    color: z.number().int().min(0).max(0xffffff).optional(),
    footer: z
      .strictObject({
        text: z.string().min(1).max(DISCORD_LIMITS.footerText, `A footer is at most ${DISCORD_LIMITS.footerText} characters`),
      })
      .optional(),
    timestamp: z.iso.datetime({ offset: true }).optional(),
    url: z.string().max(2000).refine(isHttpsUrl, 'An embed link must be an https:// address').optional(),
  })
  .refine((embed) => Boolean(embed.title?.trim() || embed.description?.trim()), 'An embed needs a title or a description');
export type DiscordEmbed = z.infer<typeof DiscordEmbedSchema>;

function totalCharacters(embeds: readonly DiscordEmbed[]): number {
  return embeds.reduce(
    (sum, e) => sum + (e.title?.length ?? 0) + (e.description?.length ?? 0) + (e.footer?.text.length ?? 0),
    0,
  );
}

export const DiscordWebhookBody = z
  .strictObject({
    embeds: z
      .array(DiscordEmbedSchema)
      .min(1, 'Send at least one embed')
      .max(DISCORD_LIMITS.embeds, `Send at most ${DISCORD_LIMITS.embeds} embeds`),
  })
  .refine(
    (body) => totalCharacters(body.embeds) <= DISCORD_LIMITS.totalCharacters,
    `The embeds of one message hold at most ${DISCORD_LIMITS.totalCharacters} characters in all`,
  );
export type DiscordWebhookMessage = z.infer<typeof DiscordWebhookBody>;

/** Cuts text to a Discord limit without splitting a character in two. */
export function truncateForDiscord(text: string, max: number): string {
  if (text.length <= max) return text;
  const characters = [...text];
  let result = '';
  for (const character of characters) {
    if (result.length + character.length > max - 1) break;
    result += character;
  }
  return `${result}…`;
}
