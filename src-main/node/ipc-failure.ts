/**
 * A handler's way to fail with a code the renderer can act on (e.g. not_signed_in, not_found).
 * Transports answer it as `{ ok: false, code, message }`; anything else thrown becomes `failed`.
 */
import type { IpcErrorCode } from '../../src-shared/console/ipc-contract.ts';

export class IpcFailure extends Error {
  readonly code: IpcErrorCode;
  constructor(code: IpcErrorCode, message: string) {
    super(message);
    this.name = 'IpcFailure';
    this.code = code;
  }
}
