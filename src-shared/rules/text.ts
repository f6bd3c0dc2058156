/**
 * The one rule for free text people type (titles, descriptions, term names, government responses,
 * debate fields, ban reasons): line breaks become `\n`, the text is normalised to Unicode NFC, and
 * control characters other than newline and tab, as well as bidirectional embeddings, overrides and
 * isolates, are refused: they can hide or reorder what staff and signers read (Trojan Source).
 */
import { VALIDATION } from '../domain/validation-messages.ts';

/** C0 controls but tab (U+0009) and newline (U+000A), DEL and C1, LRE/RLE/PDF/LRO/RLO, LRI/RLI/FSI/PDI. */
// eslint-disable-next-line no-control-regex -- matching control characters is this rule's purpose
const FORBIDDEN_CHARACTER = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/u;

/** CRLF and lone CR (from some platforms' text areas) become `\n`; then Unicode NFC. */
export function normaliseText(text: string): string {
  return text.replace(/\r\n?/g, '\n').normalize('NFC');
}

export function hasForbiddenCharacters(text: string): boolean {
  return FORBIDDEN_CHARACTER.test(normaliseText(text));
}

/** The message for text that breaks the rule, or null. */
export function textError(text: string | null | undefined): string | null {
  return text && hasForbiddenCharacters(text) ? VALIDATION.textForbiddenCharacters : null;
}
