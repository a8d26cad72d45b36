import { Binary, BSONRegExp, Decimal128, Double, Int32, Long, MaxKey, MinKey, ObjectId, Timestamp } from 'bson';
import { documentHoldingKey, documentsHoldingKey, holdsKeyAt, keyString, keysHeldAt, sameKey } from '../../../../src/gateway/documents/key-string';

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
    const held = [{ k: id }, { k: [other, id] }, { k: [] }, { k: [null] }, {}].map((document) => holdsKeyAt(document, 'k', id));
    expect(held).toEqual([true, true, false, false, false]);
  });

  it('keysHeldAt opens an array the path crosses, and the array it ends at, but not an array inside that one', () => {
    expect(keysHeldAt({ org: [['acme'], 'beta'] }, 'org')).toEqual([['acme'], 'beta']);
    expect(keysHeldAt({ credits: [{ ids: [1, 2] }, { ids: 3 }, { ids: [[4]] }] }, 'credits.ids')).toEqual([1, 2, 3, [4]]);
    expect(holdsKeyAt({ org: [['acme']] }, 'org', 'acme')).toBe(false);
    expect(holdsKeyAt({ credits: [{ ids: [1, 2] }] }, 'credits.ids', 2)).toBe(true);
  });
});

/**
 * sameKey, holdsKeyAt, documentsHoldingKey and documentHoldingKey skip spelling keys out (lookup.ts,
 * projected-read.ts, and access rules in viewer-access.ts): over seeded random values of every kind a
 * key takes, they must agree with comparing keyStrings.
 */
describe('sameKey, holdsKeyAt and documentsHoldingKey agree with keyString', () => {
  const seed = 20261207;
  /** mulberry32: 32-bit state, so the sequence does not cycle within a run. */
  function random(): () => number {
    let state = seed;
    return () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const hex = ['65e000000000000000000001', '65e000000000000000000002', 'ffe0000000000000000000ab'];
  const one = <T>(pick: () => number, values: readonly T[]): T => values[Math.floor(pick() * values.length)]!;
  const makers: Array<(pick: () => number) => unknown> = [
    (pick) => new ObjectId(one(pick, hex)),
    (pick) => new ObjectId(Buffer.from(one(pick, hex), 'hex')),
    (pick) => one(pick, hex),
    (pick) => one(pick, ['a', 'b', '', 'n:7e0']),
    (pick) => one(pick, [0, -0, 7, 7.5, 70, NaN, Infinity, 2 ** 53, 2 ** 53 + 2, 0.1 + 0.2, 0.3]),
    (pick) => Long.fromNumber(one(pick, [0, 7, 70])),
    (pick) => new Int32(one(pick, [0, 7])),
    (pick) => new Double(one(pick, [7, 7.5, NaN])),
    (pick) => Decimal128.fromString(one(pick, ['7.0', '0', '-0', '7.50', 'NaN', '7E+1'])),
    (pick) => BigInt(one(pick, [0, 7])),
    (pick) => new Date(one(pick, [0, 86400000])),
    (pick) => one(pick, [true, false, null, undefined]),
    (pick) => one(pick, [[new ObjectId(hex[0])], ['a', 'b'], [], [7]]),
    (pick) => one(pick, [{ a: 1 }, { $oid: hex[0] }, new MinKey(), new MaxKey()]),
    // An ObjectId of another copy of bson (a resolver's): sameKey's instanceof test misses it, keyString does not.
    (pick) => objectIdOfAnotherCopy(one(pick, hex)),
  ];
  function objectIdOfAnotherCopy(hexString: string): unknown {
    return { _bsontype: 'ObjectId', [Symbol.for('@@mdb.bson.version')]: 7, id: Buffer.from(hexString, 'hex'), toHexString: () => hexString, toJSON: () => hexString };
  }
  const pick = random();
  const valueOf = () => one(pick, makers)(pick);

  it('sameKey(a, b) is keyString(a) === keyString(b), over 20,000 seeded pairs (seed 20261207)', () => {
    const disagreements: string[] = [];
    for (let run = 0; run < 20000; run++) {
      const a = valueOf();
      const b = pick() < 0.3 ? a : valueOf();
      if (sameKey(a, b) !== (keyString(a) === keyString(b))) disagreements.push(`${keyString(a)} vs ${keyString(b)}`);
    }
    expect(disagreements).toEqual([]);
  });

  it('documentsHoldingKey finds the documents whose keyString at the path is the key\'s, in order, and documentHoldingKey the first of them, in short lists (searched) and long ones (grouped)', () => {
    const disagreements: string[] = [];
    for (const length of [0, 1, 3, 16, 17, 40]) {
      for (let run = 0; run < 60; run++) {
        const documents = Array.from({ length }, (_, at) => ({ at, k: valueOf() }));
        const holding = documentsHoldingKey(documents, 'k');
        const firstHolding = documentHoldingKey(documents, 'k');
        for (let probe = 0; probe < 10; probe++) {
          const key = pick() < 0.5 && length > 0 ? documents[Math.floor(pick() * length)]!.k : valueOf();
          const found = holding(key).map((document) => document.at);
          const expected = documents.filter((document) => keyString(document.k) === keyString(key)).map((document) => document.at);
          if (JSON.stringify(found) !== JSON.stringify(expected)) disagreements.push(`length ${length}, key ${keyString(key)}: ${JSON.stringify(found)} vs ${JSON.stringify(expected)}`);
          if (firstHolding(key)?.at !== expected[0]) disagreements.push(`first, length ${length}, key ${keyString(key)}: ${firstHolding(key)?.at} vs ${expected[0]}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('holdsKeyAt(document, path, key) is whether a key keysHeldAt finds there has the key\'s keyString, over 20,000 seeded documents and keys', () => {
    const disagreements: string[] = [];
    const documentOf = (): unknown => {
      const shape = pick();
      if (shape < 0.4) return { k: valueOf() };
      if (shape < 0.6) return { k: [valueOf(), valueOf()] };
      if (shape < 0.8) return { o: [{ k: valueOf() }, { k: [valueOf()] }, [{ k: valueOf() }]] };
      return { o: { k: pick() < 0.5 ? valueOf() : [[valueOf()], valueOf()] } };
    };
    for (let run = 0; run < 20000; run++) {
      const document = documentOf();
      const path = pick() < 0.5 ? 'k' : 'o.k';
      const held = keysHeldAt(document, path);
      const key = pick() < 0.5 && held.length > 0 ? held[Math.floor(pick() * held.length)] : valueOf();
      const expected = held.some((value) => keyString(value) === keyString(key));
      if (holdsKeyAt(document, path, key) !== expected) disagreements.push(`run ${run}: ${path}, key ${keyString(key)}`);
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
