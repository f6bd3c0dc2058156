/** Texts and guards of the site-wide actions (maintenance, Delete All Petitions). */
import { DELETE_ALL_CONFIRMATION } from '../../../src-shared/domain/constants.ts';
import { ERRORS } from '../../../src-shared/domain/messages.ts';

export function maintenanceStateText(on: boolean): string {
  return on
    ? `Maintenance mode is ON. Everyone except the System Administrator sees "${ERRORS.maintenance}".`
    : 'Maintenance mode is OFF. The site is open to everyone.';
}

/** The typed phrase must match exactly: no trimming, no case folding. */
export function deleteAllEnabled(typed: string): boolean {
  return typed === DELETE_ALL_CONFIRMATION;
}

/**
 * Why the Delete All button is (still) disabled, shown next to it and read with it: what to type,
 * that it is case-sensitive, and what is wrong with what was typed so far.
 */
export function deleteAllGuidance(typed: string): string {
  if (deleteAllEnabled(typed)) return 'The phrase matches: the button is enabled.';
  const phrase = DELETE_ALL_CONFIRMATION;
  if (!typed) return `The button stays disabled until you type ${phrase} exactly. It is case-sensitive.`;
  if (typed.trim() === phrase) return 'Remove the spaces before or after the phrase: it must match exactly.';
  if (typed.trim().toUpperCase() === phrase) return `Use capital letters: the phrase is case-sensitive (${phrase}).`;
  if (phrase.startsWith(typed)) return `Keep typing: ${phrase}.`;
  return `That does not match. Type ${phrase} exactly, in capital letters (case-sensitive).`;
}
