/**
 * The app matches its pages itself (src-renderer/routeMatch.ts) instead of with react-router's <Routes>: every
 * address must reach the page react-router's own matching reaches, with the same parameters.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { matchRoutes } from 'react-router-dom';
import { APP_PATHS } from '../../src-shared/domain/app-paths.ts';
import { routeMatcher } from '../../src-renderer/routeMatch.ts';

const ADDRESSES = [
  '/',
  '//',
  '/petitions',
  '/petitions/',
  '/PETITIONS',
  '/petitions/term/3',
  '/petitions/term/3/',
  '/petitions/term/a%2Fb',
  '/petitions/term/',
  '/petition/12',
  '/Petition/12',
  '/petition/12/',
  '/petition/12/extra',
  '/petition/%31%32',
  '/petition/%E0%A4%A',
  '/petition/caf%C3%A9',
  '/petition/',
  '/petitionx/12',
  '/create-petition',
  '/create%2Dpetition',
  '/privacypolicy',
  '/terms-and-conditions',
  '/term-management',
  '/moderation',
  '/my-petitions',
  '/account',
  '/account/extra',
  '/notifications',
  '/statistics',
  '/auth/callback',
  '/auth/callback/',
  '/auth',
  '/nowhere',
];

describe('route matching', () => {
  // react-router warns about the malformed address of the list (it matches it undecoded, and so do we).
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("matches every page's path as react-router does, parameters included", () => {
    const differences: string[] = [];
    for (const path of Object.values(APP_PATHS)) {
      const ours = routeMatcher(path);
      for (const address of ADDRESSES) {
        // What useRoutes/<Routes> match: matchRoutes decodes the address's segments, then matches (case-insensitive).
        const theirs = matchRoutes([{ path }], address)?.[0]?.params ?? null;
        const mine = ours(address);
        if (JSON.stringify(mine) !== JSON.stringify(theirs)) differences.push(`${path} ${address}: ${JSON.stringify(mine)} vs ${JSON.stringify(theirs)}`);
      }
    }
    expect(differences).toEqual([]);
  });

  it('picks the same page as react-router among all of them (no two paths match one address)', () => {
    const paths = Object.values(APP_PATHS);
    for (const address of ADDRESSES) {
      const theirs = matchRoutes(paths.map((path) => ({ path })), address)?.[0]?.route.path ?? null;
      const mine = paths.filter((path) => routeMatcher(path)(address) !== null);
      expect(mine, address).toEqual(theirs === null ? [] : [theirs]);
    }
  });

  it('gives the parameter of a petition and of a term', () => {
    expect(routeMatcher(APP_PATHS.petition)('/petition/42')).toEqual({ id: '42' });
    expect(routeMatcher(APP_PATHS.termPetitions)('/Petitions/Term/7/')).toEqual({ id: '7' });
    expect(routeMatcher(APP_PATHS.petition)('/petitions')).toBeNull();
  });
});
