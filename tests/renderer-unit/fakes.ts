/** Fakes of the API client and platform for the renderer's store tests. */
import type { User } from '../../src-shared/domain/schemas.ts';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: '1001',
    username: 'citizen',
    displayName: 'Citizen One',
    avatar: '',
    rank: 1,
    userType: 'British Citizen',
    government_rank: 0,
    citizen_rank: 1,
    can_sign: true,
    groups_unavailable: false,
    ...overrides,
  };
}

export function makePlatform() {
  const opened: string[] = [];
  let returnTo: string | null = null;
  return {
    opened,
    openSignIn(url: string) {
      opened.push(url);
    },
    rememberReturnTo(path: string | null) {
      returnTo = path;
    },
    takeReturnTo() {
      const value = returnTo;
      returnTo = null;
      return value;
    },
  };
}
