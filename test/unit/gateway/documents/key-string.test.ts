import { Binary, BSONRegExp, Decimal128, Long, MaxKey, MinKey, ObjectId, Timestamp } from 'bson';
import { documentsByKey, documentsHoldingKey, holdsKeyAt, keyString, keysHeldAt, sameKey } from '../../../../src/gateway/documents/key-string';

/** Keys index the loaders' maps: values MongoDB's equality tells apart must key apart, and equal ones alike. */
describe('keyString', () => {
  it('keys apart the values JSON writes alike: MinKey, MaxKey and {}, a Binary of each subtype, a regex and its pattern', () => {
    const values = [new MinKey(), new MaxKey(), {}, new Binary(Buffer.from([1, 2]), 0), new Binary(Buffer.from([1, 2]), 4), new Timestamp({ t: 1, i: 2 }), new BSONRegExp('a', 'i'), 'a', [1, 2], { a: 1 }];
    expect(new Set(values.map(keyString)).size).toBe(values.length);
  });

  it('keys equal values alike, whatever their width or instance', () => {
    expect(keyString(new ObjectId('65e000000000000000000001'))).toBe(keyString(new ObjectId('65e000000000000000000001')));
    expect(new Set([keyString(7), keyString(Long.fromNumber(7)), keyString(Decimal128.fromString('7.0'))]).size).toBe(1);
  });

  it('holdsKeyAt matches a value as MongoDB equality does: equal, or an array holding it', () => {
    const id = new ObjectId('65e000000000000000000001');
    const other = new ObjectId('65e000000000000000000002');
    const held = [{ k: id }, { k: [other, id] }, { k: [] }, { k: [null] }, {}].map((document) => holdsKeyAt(document, 'k', keyString(id)));
    expect(held).toEqual([true, true, false, false, false]);
  });

  it('keysHeldAt opens an array the path crosses, and the array it ends at, but not an array inside that one', () => {
    expect(keysHeldAt({ org: [['acme'], 'beta'] }, 'org')).toEqual([['acme'], 'beta']);
    expect(keysHeldAt({ credits: [{ ids: [1, 2] }, { ids: 3 }, { ids: [[4]] }] }, 'credits.ids')).toEqual([1, 2, 3, [4]]);
    expect(holdsKeyAt({ org: [['acme']] }, 'org', keyString('acme'))).toBe(false);
    expect(holdsKeyAt({ credits: [{ ids: [1, 2] }] }, 'credits.ids', keyString(2))).toBe(true);
  });
});

/**
 * sameKey and documentsHoldingKey skip spelling keys out (lookup.ts, projected-read.ts): over seeded
 * random values of every kind a key takes, they must agree with comparing keyStrings and grouping by them.
 */
describe('sameKey and documentsHoldingKey agree with keyString', () => {
  const seed = 20261207;
  function random(state = { value: seed }): () => number {
    return () => {
      state.value = (state.value * 1103515245 + 12345) % 2147483648;
      return state.value / 2147483648;
    };
  }
  const hex = ['65e000000000000000000001', '65e000000000000000000002', 'ffe0000000000000000000ab'];
  const makers: Array<(pick: () => number) => unknown> = [
    (pick) => new ObjectId(hex[Math.floor(pick() * hex.length)]!),
    (pick) => hex[Math.floor(pick() * hex.length)]!,
    (pick) => ['a', 'b', ''][Math.floor(pick() * 3)],
    (pick) => [0, 7, 7.5, -0][Math.floor(pick() * 4)],
    (pick) => Long.fromNumber([0, 7][Math.floor(pick() * 2)]!),
    (pick) => Decimal128.fromString(['7.0', '0', '7.50'][Math.floor(pick() * 3)]!),
    (pick) => new Date([0, 86400000][Math.floor(pick() * 2)]!),
    (pick) => [true, false][Math.floor(pick() * 2)],
    (pick) => [null, undefined][Math.floor(pick() * 2)],
    (pick) => [[new ObjectId(hex[0])], ['a', 'b'], []][Math.floor(pick() * 3)],
    (pick) => [{ a: 1 }, { $oid: hex[0] }][Math.floor(pick() * 2)],
  ];
  const pick = random();
  const valueOf = () => makers[Math.floor(pick() * makers.length)]!(pick);

  it('sameKey(a, b) is keyString(a) === keyString(b), over 5,000 seeded pairs (seed 20261207)', () => {
    const disagreements: string[] = [];
    for (let run = 0; run < 5000; run++) {
      const a = valueOf();
      const b = pick() < 0.3 ? a : valueOf();
      if (sameKey(a, b) !== (keyString(a) === keyString(b))) disagreements.push(`${keyString(a)} vs ${keyString(b)}`);
    }
    expect(disagreements).toEqual([]);
  });

  it('documentsHoldingKey finds what grouping by keyString finds, in order, in short lists (searched) and long ones (grouped)', () => {
    const disagreements: string[] = [];
    for (const length of [0, 1, 3, 16, 17, 40]) {
      for (let run = 0; run < 60; run++) {
        const documents = Array.from({ length }, (_, at) => ({ at, k: valueOf() }));
        const holding = documentsHoldingKey(documents, 'k');
        const grouped = documentsByKey(documents, 'k');
        for (let probe = 0; probe < 10; probe++) {
          const key = pick() < 0.5 && length > 0 ? documents[Math.floor(pick() * length)]!.k : valueOf();
          const found = holding(key).map((document) => document.at);
          const expected = (grouped.get(keyString(key)) ?? []).map((document) => document.at);
          if (JSON.stringify(found) !== JSON.stringify(expected)) disagreements.push(`length ${length}, key ${keyString(key)}: ${JSON.stringify(found)} vs ${JSON.stringify(expected)}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('documentsHoldingKey hands out a new array each time, so a caller may keep or change it', () => {
    const id = new ObjectId(hex[0]);
    for (const length of [2, 20]) {
      const documents = Array.from({ length }, () => ({ k: id }));
      const holding = documentsHoldingKey(documents, 'k');
      const first = holding(id);
      first.pop();
      expect(holding(id)).toHaveLength(length);
      expect(holding(id)).not.toBe(holding(id));
    }
  });
});
