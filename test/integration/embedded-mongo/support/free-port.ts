import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';

/** A port nothing listens on right now (the OS picks it, then it is closed again), for tests that pass an explicit port. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  probe.close();
  await once(probe, 'close');
  return port;
}
