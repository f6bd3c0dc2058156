/** The notification centre's and My petitions' own texts (docs/notifications.md). */
export const FEED_TEXTS = {
  pageTitle: 'Notifications',
  panelTitle: 'Notifications',
  signInTitle: 'Sign in to see your notifications',
  signInText: 'Sign in with your ROBLOX account to hear what happens to the petitions you created or signed.',
  empty: 'No notifications yet. When a petition you created or signed gets a response, a debate or closes, it appears here.',
  loadFailed: 'Your notifications could not be loaded. Please try again.',
  markAllRead: 'Mark all as read',
  markRead: 'Mark as read',
  unreadTag: 'Unread',
  showOlder: 'Show older notifications',
  seeAll: 'See all notifications',
  settings: 'Notification settings',
  stopUpdates: 'Stop updates for this petition',
  resumeUpdates: 'Resume updates for this petition',
  actionFailed: 'That did not work. Please try again.',
  preferencesTitle: 'Notification settings',
  preferencesLegend: 'Tell me about',
  pushTitle: 'Web push',
  pushLabel: 'Web push: also notify this device when the site is not open',
  pushHint: 'Needs your browser’s permission. You can switch it off at any time. Applies to this browser only.',
  pushOn: 'Web push is on for this device.',
  pushOff: 'Web push is off for this device.',
  pushBlocked: 'Your browser blocks notifications from this site. Allow them in the browser’s site settings, then try again.',
  pushUnsupported: 'This browser cannot receive web push.',
  pushOffOnSite: 'This site does not send web push.',
  pushFailed: 'Web push could not be switched. Please try again.',
  savePreferences: 'Save settings',
  preferencesSaved: 'Your notification settings were saved.',
  mutedTitle: 'Petitions you stopped updates for',
  mutedEmpty: 'You get updates for every petition you created or signed.',
} as const;

export const MY_PETITIONS_TEXTS = {
  pageTitle: 'My petitions',
  tabsLabel: 'My petitions',
  created: 'Created',
  signed: 'Signed',
  signInTitle: 'Sign in to see your petitions',
  signInText: 'Sign in with your ROBLOX account to see the petitions you created and signed, and what happened to them.',
  emptyCreated: 'You have not created a petition yet.',
  emptySigned: 'You have not signed a petition yet.',
  loadFailed: 'Your petitions could not be loaded. Please try again.',
  latest: 'Latest',
  noEventsYet: 'No news yet',
} as const;

export function unreadLine(unread: number): string {
  return unread === 0 ? 'All caught up' : `${unread.toLocaleString('en-GB')} unread`;
}
