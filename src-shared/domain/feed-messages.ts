/**
 * Texts of the notification centre that the web app's first download needs (the header's button),
 * kept apart from src-shared/rules/feed.ts so that download does not carry the event rules.
 */

/** "This will notify 1,234 signers" (the staff forms, before submitting). */
export function notifySignersText(signers: number): string {
  return `This will notify ${signers.toLocaleString('en-GB')} ${signers === 1 ? 'signer' : 'signers'}`;
}

/** The accessible name of the header's notifications button: "Notifications, 2 unread". */
export function notificationsButtonName(unread: number): string {
  return unread > 0 ? `Notifications, ${unread.toLocaleString('en-GB')} unread` : 'Notifications, none unread';
}
