/** Error mapping and button labels of signing and removing a signature (docs/rules.md#signing). */
import { ApiError, NetworkError } from '../../../src-shared/api/caller.ts';
import { SITE_ERRORS } from '../../../src-shared/domain/site-messages.ts';
import { SIGN_TEXT } from './signTexts.ts';

export const SIGN_ERRORS = {
  signFailed: 'Failed to sign petition',
  signNetwork: 'Failed to sign petition. Please try again.',
  unsignFailed: 'Failed to update signature',
  unsignNetwork: 'Failed to update signature. Please try again.',
  unknown: 'An error occurred. Please try again.',
} as const;

export function signButtonLabel(signed: boolean, busy: 'sign' | 'unsign' | null): string {
  if (busy === 'sign') return SIGN_TEXT.signing;
  if (busy === 'unsign') return SIGN_TEXT.removing;
  return signed ? SIGN_TEXT.remove : SIGN_TEXT.sign;
}

export function signErrorMessage(error: unknown, signing: boolean): string {
  if (error instanceof NetworkError) return signing ? SIGN_ERRORS.signNetwork : SIGN_ERRORS.unsignNetwork;
  if (error instanceof ApiError) {
    if (error.status === 401) return SIGN_TEXT.loginFirst;
    if (error.status === 403 && !error.problem) return SITE_ERRORS.signUnauthorized;
    return error.detail || (signing ? SIGN_ERRORS.signFailed : SIGN_ERRORS.unsignFailed);
  }
  return SIGN_ERRORS.unknown;
}
