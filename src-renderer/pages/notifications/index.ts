/**
 * The member's pages as ONE lazy chunk: My petitions, the notifications page, the account page and the header's panel
 * share most of their code, and one chunk keeps the shared components' chunks as they were
 * (tests/renderer/bundle-budget.test.ts counts every extra chunk a page needs).
 */
export { AccountPage } from './AccountPage.tsx';
export { MyPetitionsPage } from './MyPetitionsPage.tsx';
export { NotificationsPage } from './NotificationsPage.tsx';
export { NotificationsPanel } from './NotificationsPanel.tsx';
