import { ObjectId, Long } from 'bson';
import { awaitableHelloIntervalMs } from '../../../../src/embedded-mongo/wire/awaitable-hello';

describe('awaitableHelloIntervalMs', () => {
  const topologyVersion = { processId: new ObjectId(), counter: Long.fromNumber(0) };

  it('returns maxAwaitTimeMS for a streaming hello or legacy isMaster', () => {
    expect(awaitableHelloIntervalMs({ hello: 1, topologyVersion, maxAwaitTimeMS: 10000 })).toBe(10000);
    expect(awaitableHelloIntervalMs({ ismaster: 1, topologyVersion, maxAwaitTimeMS: Long.fromNumber(500) })).toBe(500);
  });

  it('returns undefined for anything else', () => {
    expect(awaitableHelloIntervalMs({ hello: 1 })).toBeUndefined();
    expect(awaitableHelloIntervalMs({ hello: 1, maxAwaitTimeMS: 10 })).toBeUndefined();
    expect(awaitableHelloIntervalMs({ ping: 1, topologyVersion, maxAwaitTimeMS: 10 })).toBeUndefined();
    expect(awaitableHelloIntervalMs({ hello: 1, topologyVersion })).toBeUndefined();
  });
});
