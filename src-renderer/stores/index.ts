/**
 * The app's store instances, bound to the real API client and platform. Tests build their own
 * instances with the create*Store factories and fakes.
 */
import { api } from '../services/api.ts';
import { platform } from '../platform/index.ts';
import { createSessionStore } from './session.ts';
import { createSiteStore } from './site.ts';
import { createFlashStore } from './flash.ts';
import { createLiveStreamStore } from './liveStream.ts';

export const useSession = createSessionStore(api, platform);
export const useSite = createSiteStore(api);
export const useFlash = createFlashStore();
export const useLiveStream = createLiveStreamStore();
export { usePetitionsVersion, announcePetitionsUpdated, PETITIONS_UPDATED_EVENT, NAVIGATE_HOME_EVENT } from './petitionsVersion.ts';
export { selectCurrentTerm, termName } from './site.ts';
export type { SessionState } from './session.ts';
export type { SiteState } from './site.ts';
export type { LiveStreamState } from './liveStream.ts';
export type { FlashState, FlashNotice, FlashTone } from './flash.ts';
