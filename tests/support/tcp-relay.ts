import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpRelay {
  port: number;
  /** Destroys every open connection at the server's end, as a dropped network or tunnel would. */
  cut(): void;
  close(): Promise<void>;
}

/**
 * A byte-for-byte TCP relay in front of a local server, so a test can drop a live connection
 * without the client closing it. Headers pass unchanged: clients still name the server's Host.
 */
export async function startTcpRelay(targetPort: number): Promise<TcpRelay> {
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    const pair = { client, upstream };
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', drop);
    upstream.on('close', drop);
    client.on('error', drop);
    upstream.on('error', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      for (const { upstream } of [...pairs]) upstream.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const { client, upstream } of [...pairs]) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
