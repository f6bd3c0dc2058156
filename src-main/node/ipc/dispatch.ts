/**
 * The one way a renderer call reaches a handler, whatever carries it (Electron IPC, the loopback
 * bridge): check who sent it, parse the request with the contract's schema, run the handler, parse
 * the response too, and answer with an IpcResult. Expected failures are values; nothing a handler
 * throws crosses to the renderer except a short message.
 */
import { z } from 'zod';
import { IPC_CHANNELS } from '../../../src-shared/console/ipc-contract.ts';
import type { IpcChannel, IpcErrorCode, IpcHandlers, IpcResult } from '../../../src-shared/console/ipc-contract.ts';
import { IpcFailure } from '../ipc-failure.ts';

export { IpcFailure };

/** What the transport knows about the frame that sent a call. */
export interface SenderInfo {
  /** The sending frame's URL (Electron: `event.senderFrame.url`; bridge: the page's Origin). */
  url: string;
  /** False for iframes: only the top-level console page may call. */
  isMainFrame: boolean;
}

/** Origins whose main frame may call, e.g. `app://console` (and the dev server in `electron-vite dev`). */
export type TrustedOrigins = readonly string[];

export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    // Custom schemes registered as standard (app://console) have an opaque origin in Node's URL;
    // compare scheme and host ourselves.
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return null;
  }
}

export function isTrustedSender(sender: SenderInfo | null | undefined, trusted: TrustedOrigins): boolean {
  if (!sender || sender.isMainFrame !== true || typeof sender.url !== 'string') return false;
  const origin = originOf(sender.url);
  return origin !== null && trusted.includes(origin);
}

function isChannel(channel: unknown): channel is IpcChannel {
  return typeof channel === 'string' && Object.hasOwn(IPC_CHANNELS, channel);
}

function failure(code: IpcErrorCode, message: string): IpcResult<never> {
  return { ok: false, code, message };
}

export async function dispatch(
  handlers: IpcHandlers,
  sender: SenderInfo | null | undefined,
  trusted: TrustedOrigins,
  channel: unknown,
  payload: unknown,
  onError: (channel: string, error: unknown) => void = () => undefined,
): Promise<IpcResult<unknown>> {
  if (!isTrustedSender(sender, trusted)) return failure('forbidden_sender', 'Only the console window may call the console.');
  if (!isChannel(channel)) return failure('invalid_request', 'Unknown channel.');
  const schemas = IPC_CHANNELS[channel];
  const request = schemas.request.safeParse(payload ?? {});
  if (!request.success) return failure('invalid_request', z.prettifyError(request.error));
  let value: unknown;
  try {
    const handler = handlers[channel] as (request: unknown) => Promise<unknown>;
    value = await handler(request.data);
  } catch (error) {
    if (error instanceof IpcFailure) return failure(error.code, error.message);
    onError(channel, error);
    return failure('failed', error instanceof Error ? error.message : 'The console could not do that.');
  }
  const response = schemas.response.safeParse(value);
  if (!response.success) {
    // A handler answering outside the contract is our bug: the renderer must never see it.
    onError(channel, response.error);
    return failure('failed', `The console answered ${channel} outside its contract.`);
  }
  return { ok: true, value: response.data };
}
