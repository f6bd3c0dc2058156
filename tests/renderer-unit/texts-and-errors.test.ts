import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../src-shared/api/client.ts';
import { ERRORS, VALIDATION } from '../../src-shared/domain/messages.ts';
import { signButtonLabel, signErrorMessage } from '../../src-renderer/pages/detail/signing.ts';
import { SIGN_TEXT } from '../../src-renderer/pages/detail/signTexts.ts';
import { createFailure, summaryErrors } from '../../src-renderer/pages/create/createPetition.ts';
import { moreSignaturesLabel } from '../../src-renderer/components/SignersList.tsx';
import { progressSentence, progressSteps } from '../../src-renderer/components/SignatureProgress.tsx';
import { safeHttpUrl } from '../../src-renderer/pages/detail/PetitionBoxes.tsx';
import { startBlockState } from '../../src-renderer/pages/HomePage.tsx';
import { withoutAuthParams } from '../../src-renderer/components/AuthCompletionFlow.tsx';
import { isSafeReturnPath } from '../../src-renderer/platform/web.ts';
import { pathForNavKey } from '../../src-renderer/routes.ts';
import { cumulativePoints, niceMax, stepPath } from '../../src-renderer/components/SignaturesChart.tsx';

describe('signing texts', () => {
  it('labels the button by state', () => {
    expect(signButtonLabel(false, null)).toBe('Sign this petition');
    expect(signButtonLabel(true, null)).toBe('Remove signature');
    expect(signButtonLabel(false, 'sign')).toBe('Signing...');
    expect(signButtonLabel(true, 'unsign')).toBe('Removing signature...');
  });

  it('maps failures', () => {
    const problem = { type: 'x', title: 'x', status: 409, detail: ERRORS.petitionClosed };
    expect(signErrorMessage(new ApiError(409, ERRORS.petitionClosed, problem), true)).toBe(ERRORS.petitionClosed);
    expect(signErrorMessage(new ApiError(403, 'Forbidden', null), true)).toBe(ERRORS.signUnauthorized);
    expect(signErrorMessage(new ApiError(401, 'x', null), true)).toBe(SIGN_TEXT.loginFirst);
    expect(signErrorMessage(new NetworkError(null), true)).toBe('Failed to sign petition. Please try again.');
    expect(signErrorMessage(new NetworkError(null), false)).toBe('Failed to update signature. Please try again.');
    expect(signErrorMessage(new ApiError(500, '', null), true)).toBe('Failed to sign petition');
  });
});

describe('create petition failures', () => {
  it('403 shows the detail, else the banned text', () => {
    const problem = { type: 'x', title: 'x', status: 403, detail: 'Banned: spam' };
    expect(createFailure(new ApiError(403, 'Banned: spam', problem))).toEqual({ kind: 'message', message: 'Banned: spam' });
    expect(createFailure(new ApiError(403, '', null))).toEqual({ kind: 'message', message: ERRORS.banned });
  });

  it('429 is the daily limit', () => {
    expect(createFailure(new ApiError(429, 'x', null))).toEqual({ kind: 'limit', message: ERRORS.dailyLimit });
  });

  it('field errors from the problem go to the fields', () => {
    const problem = {
      type: 'x',
      title: 'x',
      status: 400,
      detail: 'Invalid',
      errors: [{ field: 'title', message: VALIDATION.titleTooShort }],
    };
    expect(createFailure(new ApiError(400, 'Invalid', problem))).toEqual({
      kind: 'fields',
      errors: { title: VALIDATION.titleTooShort },
    });
    expect(createFailure(new NetworkError(null))).toEqual({ kind: 'message', message: 'Failed to create petition' });
  });

  it('orders the summary like the form', () => {
    expect(summaryErrors({ description: 'd', title: 't', tags: 'g' }).map((e) => e.fieldId)).toEqual([
      'petition-title',
      'petition-tags',
      'petition-description',
    ]);
  });
});

describe('detail helpers', () => {
  it("says '+ N more signatures'", () => {
    expect(moreSignaturesLabel(25, 10)).toBe('+ 15 more signatures');
    expect(moreSignaturesLabel(11, 10)).toBe('+ 1 more signature');
    expect(moreSignaturesLabel(10, 10)).toBeNull();
  });

  it('tracks progress to 10 and 20 signatures', () => {
    const [response, debate] = progressSteps(12);
    expect(response).toMatchObject({ reached: true, percent: 100 });
    expect(debate).toMatchObject({ reached: false, percent: 60, remaining: 8 });
    expect(progressSentence(debate!)).toBe('Debate in Parliament: 8 more signatures needed (20 in total)');
  });

  it('links only to web addresses', () => {
    expect(safeHttpUrl('https://hansard.example/debate')).toBe('https://hansard.example/debate');
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
    expect(safeHttpUrl('not a url')).toBeNull();
  });

  it('builds the chart series', () => {
    const points = cumulativePoints([
      { hour: '2026-11-21T10:00:00Z', count: 2 },
      { hour: '2026-11-21T08:00:00Z', count: 1 },
    ]);
    expect(points.map((p) => p.total)).toEqual([1, 3]);
    expect(niceMax(3)).toBe(5);
    expect(niceMax(37)).toBe(50);
    expect(stepPath(points, points[0]!.time - 1, points[1]!.time + 1, 5)).toMatch(/^M[\d.]+,[\d.]+( L[\d.]+,[\d.]+)+$/);
  });
});

describe('home start block states', () => {
  const base = { inSession: true, sessionLoading: false, signedIn: true, canCreate: true, limitReached: false };
  it('picks the state in the spec order', () => {
    expect(startBlockState({ ...base, inSession: null })).toBe('checking');
    expect(startBlockState({ ...base, inSession: false })).toBe('not-in-session');
    expect(startBlockState({ ...base, signedIn: false, canCreate: false })).toBe('visitor');
    expect(startBlockState({ ...base, canCreate: false })).toBe('non-citizen');
    expect(startBlockState({ ...base, limitReached: true })).toBe('rate-limited');
    // A ban is told before the allowance: a banned user cannot create at all.
    expect(startBlockState({ ...base, banned: true, limitReached: true })).toBe('banned');
    expect(startBlockState({ ...base, canCreate: false, banned: true })).toBe('non-citizen');
    expect(startBlockState(base)).toBe('ready');
  });
});

describe('navigation helpers', () => {
  it('strips the OAuth parameters and keeps the rest', () => {
    expect(withoutAuthParams('/petitions', '?code=a&state=b&term=2')).toBe('/petitions?term=2');
    expect(withoutAuthParams('/', '?code=a')).toBe('/');
  });
  it('accepts only same-origin return paths', () => {
    expect(isSafeReturnPath('/petition/3')).toBe(true);
    expect(isSafeReturnPath('//evil.example')).toBe(false);
    expect(isSafeReturnPath('https://evil.example')).toBe(false);
    expect(isSafeReturnPath(null)).toBe(false);
  });
  it('maps the navigation keys', () => {
    expect(pathForNavKey('home')).toBe('/');
    expect(pathForNavKey('petitions')).toBe('/petitions');
    expect(pathForNavKey('create-petition')).toBe('/create-petition');
    expect(pathForNavKey('privacy')).toBe('/privacypolicy');
    expect(pathForNavKey('elsewhere')).toBe('/');
  });
});
