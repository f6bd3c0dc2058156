/**
 * The app's store instances, bound to the real API client and platform. Tests build their own
 * instances with the create*Store factories and fakes.
 */
import { apiCaller } from '../services/apiCaller.ts';
import { apiGetSession, apiGetSiteStatus, apiListTerms, apiSignOut, apiStartSignIn } from '../../src-shared/api/visitor-calls.ts';
import { platform } from '../platform/index.ts';
import { createSessionStore } from './session.ts';
import { createSiteStore } from './site.ts';
import { createFlashStore } from './flash.ts';
import { createLiveStreamStore } from './liveStream.ts';

export const useSession = createSessionStore(
  {
    getSession: () => apiGetSession(apiCaller),
    startSignIn: (query) => apiStartSignIn(apiCaller, query),
    signOut: (userId) => apiSignOut(apiCaller, userId),
  },
  platform,
);
export const useSite = createSiteStore({ getSiteStatus: () => apiGetSiteStatus(apiCaller), listTerms: () => apiListTerms(apiCaller) });
export const useFlash = createFlashStore();
export const useLiveStream = createLiveStreamStore();
export { usePetitionsVersion, announcePetitionsUpdated, PETITIONS_UPDATED_EVENT, NAVIGATE_HOME_EVENT } from './petitionsVersion.ts';
export { selectCurrentTerm, termName } from './site.ts';
export type { SessionState } from './session.ts';
export type { SiteState } from './site.ts';
export type { LiveStreamState } from './liveStream.ts';
export type { FlashState, FlashNotice, FlashTone } from './flash.ts';
