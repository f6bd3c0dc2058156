/**
 * A TCP forwarder to the backend that can be switched off: connections are refused while down, so
 * "offline" is a real network failure. Starts up unless `{ up: false }`.
 */
import net from 'node:net';
import { freePort } from './stack.ts';

export interface SwitchableForwarder {
  url: string;
  up(): Promise<void>;
  down(): Promise<void>;
}

export async function switchableForwarder(targetPort: number, { up = true }: { up?: boolean } = {}): Promise<SwitchableForwarder> {
  let server: net.Server | null = null;
  const sockets = new Set<net.Socket>();
  const port = await freePort();
  const forwarder: SwitchableForwarder = {
    url: `http://127.0.0.1:${port}`,
    async up() {
      server = net.createServer((client) => {
        const upstream = net.connect(targetPort, '127.0.0.1');
        sockets.add(client).add(upstream);
        client.pipe(upstream).pipe(client);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
      });
      await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve));
    },
    async down() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = null;
    },
  };
  if (up) await forwarder.up();
  return forwarder;
}
