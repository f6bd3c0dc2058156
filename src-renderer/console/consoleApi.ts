/**
 * The console's one door to its main process: `window.consoleApi` (the preload's typed API, or the
 * loopback bridge of `npm run console:browser`). Screens never call it directly; the stores do,
 * through `call`, which turns a failed IpcResult into a thrown ConsoleCallError.
 */
import type {
  ConsoleApi,
  IpcChannel,
  IpcErrorCode,
  IpcRequest,
  IpcResponse,
} from '../../src-shared/console/ipc-contract.ts';

export type { ConsoleApi };

export class ConsoleCallError extends Error {
  readonly code: IpcErrorCode;
  constructor(code: IpcErrorCode, message: string) {
    super(message);
    this.name = 'ConsoleCallError';
    this.code = code;
  }
}

export async function call<C extends IpcChannel>(
  api: ConsoleApi,
  channel: C,
  request: IpcRequest<C>,
): Promise<IpcResponse<C>> {
  const result = await api.invoke(channel, request);
  if (!result.ok) throw new ConsoleCallError(result.code, result.message);
  return result.value;
}

/** The API the host put on the window, or null when this page is not inside a console. */
export function findConsoleApi(): ConsoleApi | null {
  const candidate = (window as unknown as { consoleApi?: ConsoleApi }).consoleApi;
  return candidate && typeof candidate.invoke === 'function' ? candidate : null;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
