import { APP_PATHS } from '../src-shared/domain/app-paths.ts';

/** Route paths and the navigation keys the old client used (home, petitions, create-petition, privacy). */
export const NAV_PATHS = {
  home: '/',
  petitions: '/petitions',
  'create-petition': '/create-petition',
  privacy: '/privacypolicy',
} as const;
export type NavKey = keyof typeof NAV_PATHS;

export function pathForNavKey(key: string): string {
  return (NAV_PATHS as Record<string, string>)[key] ?? NAV_PATHS.home;
}

export const petitionPath = (id: number | string) => `/petition/${id}`;
export const termPetitionsPath = (termId: number | string) => `/petitions?term=${encodeURIComponent(String(termId))}`;
export const AUTH_CALLBACK_PATH = APP_PATHS.authCallback;
