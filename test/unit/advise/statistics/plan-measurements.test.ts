import { withDirectiveTypeDefs } from 'docjoin';
import { planMeasurements } from '../../../../src/advise/statistics/plan-measurements';
import { buildWriteModelFromSdl } from '../../../../src/gateway/startup/write-model/build-write-model';

const SDL = /* GraphQL */ `
  scalar DateTime
  type Query {
    host(id: ID!): Host @find
  }
  type Host @collection(name: "hosts") {
    id: ID!
    name: String!
    addresses: [Address!]! @embedded
    recentLogs: [LogMessage!]!
      @embedded
      @join(collection: "logMessages", localField: "_id", foreignField: "host.id", sort: "-time", limit: 3)
      @read(strategy: EMBEDDED)
    logs: [LogMessage!]! @join(localField: "_id", foreignField: "host.id", sort: "-time")
  }
  type Address {
    city: String!
    neighbours: [Host!]! @join(localField: "neighbourIds")
  }
  type LogMessage @collection(name: "logMessages") {
    id: ID!
    time: DateTime!
    message: String!
    host: Host @snapshot(path: "host", fields: ["id", "name"]) @join(localField: "host.id") @read(strategy: SNAPSHOT)
  }
`;
const model = buildWriteModelFromSdl(withDirectiveTypeDefs([SDL]));
const plan = planMeasurements(model, {});
const relation = (coordinate: string) => plan.relations.find((entry) => entry.coordinate === coordinate)!;

describe('planMeasurements', () => {
  it('samples each collection once, projecting each expression once', () => {
    expect([...plan.collections.keys()]).toEqual(['hosts', 'logMessages']);
    expect(plan.collections.get('hosts')!.stage()).toEqual({
      $project: {
        _id: 0,
        bytes: { $bsonSize: '$$ROOT' },
        f0: { $cond: [{ $isArray: '$addresses' }, { $size: '$addresses' }, 0] },
        f1: { $cond: [{ $isArray: '$recentLogs' }, { $size: '$recentLogs' }, 0] },
        // the parent key of both reverse joins, and the snapshot source's _id: the same expression
        f2: '$_id',
      },
    });
    expect(plan.collections.get('logMessages')!.stage().$project).toEqual({ _id: 0, bytes: { $bsonSize: '$$ROOT' }, f0: '$host.id' });
  });

  it('plans arrays with their bound, and says why growth is not measured without a creation time', () => {
    expect(relation('Host.addresses')).toMatchObject({ array: { path: 'addresses', holds: 'embedded', limit: undefined, time: undefined }, skipped: ['array growth: Host has no creation time field; name one with the timeFields option'] });
    expect(relation('Host.recentLogs').array).toMatchObject({ path: 'recentLogs', holds: 'embedded', limit: 3 });
    expect(relation('Address.neighbours')).toMatchObject({ collection: undefined, array: undefined, skipped: ['array lengths: Address has no collection of its own (it is stored inside other documents)'] });
  });

  it('shares one reverse join between the fields reading the same children, timed by the child type', () => {
    expect(relation('Host.logs').reverseJoin).toBe(relation('Host.recentLogs').reverseJoin);
    expect(relation('Host.logs').reverseJoin).toEqual({ parentCollection: 'hosts', localField: '_id', parentKeyField: 'f2', childCollection: 'logMessages', foreignField: 'host.id', childKeyField: 'f0', childTimePath: 'time' });
  });

  it('finds each place a snapshot is copied, skipping copies kept only in their source', () => {
    expect(relation('LogMessage.host').snapshots).toEqual([{ coordinate: 'LogMessage.host', collection: 'logMessages', keyPath: 'host.id', sourceCollection: 'hosts', sourceIdField: 'f2' }]);
    expect(relation('LogMessage.host').skipped).toEqual(['snapshot fan-in of Host.recentLogs.host: its copies live only in the source document itself (one per source at most)']);
  });

  it('takes the creation time the caller names', () => {
    const named = planMeasurements(model, { Host: '_id' });
    expect(named.relations.find((entry) => entry.coordinate === 'Host.addresses')!.array!.time).toEqual({ path: '_id', field: 'f1' });
  });
});
