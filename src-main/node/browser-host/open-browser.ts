/** Opens a URL in the user's default browser from plain Node (the console:browser host's openExternal). */
import { spawn } from 'node:child_process';

export function openInBrowser(url: string): Promise<void> {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', url]] // no shell, so '&' in the URL stays literal
        : ['xdg-open', [url]];
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args, { stdio: 'ignore', detached: true });
      // No opener (a headless machine): the URL is printed anyway.
      child.on('error', () => resolve());
      child.unref();
      resolve();
    } catch {
      resolve();
    }
  });
}
