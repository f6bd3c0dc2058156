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
