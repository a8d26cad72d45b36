import { ObjectId } from 'bson';
import type { StoredDocument } from '../../../../../src/gateway/documents/stored-document';
import { projectionOf, sharedLookupName, type LookupRead } from '../../../../../src/gateway/operation/planning/projection';
import { handedOut, settleLookups } from '../../../../../src/gateway/request/loaders/projected-read';
import type { RequestScope } from '../../../../../src/gateway/request/mongo/mongo-funnel';

/** settleLookups hands each embedded element the documents of its own keys from its document's shared list (an element lookup). */
describe('settleLookups', () => {
  const lookup: LookupRead = { from: 'stocks', direction: 'byKey', localField: 'stockId', foreignField: '_id', page: [], projection: projectionOf([['symbol', 1]]) };
  const projection = projectionOf([['holdings', 1], ['holdings.stock', { lookup }]]);
  const arrivedAt = sharedLookupName('holdings.stock');
  const [a, b, c] = ['65e000000000000000000001', '65e000000000000000000002', '65e000000000000000000003'].map((hex) => new ObjectId(hex));

  function settled(document: StoredDocument): { counted: Array<[string, number]> } {
    const counted: Array<[string, number]> = [];
    const scope = { ledger: { lookedUp: (collection: string, count: number) => counted.push([collection, count]) } } as unknown as RequestScope;
    settleLookups(scope, [document], projection);
    return { counted };
  }

  it('gives each element the documents of its keys, in the order of its keys, each once, and counts what arrived', () => {
    const stockA = { _id: a, symbol: 'A' };
    const stockB = { _id: b, symbol: 'B' };
    const holdings = [{ stockId: a }, { stockId: [b, a, b] }, { stockId: c }, { stockId: null }, 'not an element'];
    const document: StoredDocument = { _id: 1, holdings, [arrivedAt]: [stockA, stockB] };
    const { counted } = settled(document);
    expect(handedOut(holdings[0] as StoredDocument, 'stock')).toEqual([stockA]);
    expect(handedOut(holdings[1] as StoredDocument, 'stock')).toEqual([stockB, stockA]);
    expect(handedOut(holdings[2] as StoredDocument, 'stock')).toEqual([]);
    expect(handedOut(holdings[3] as StoredDocument, 'stock')).toEqual([]);
    expect(arrivedAt in document).toBe(false);
    expect(counted).toEqual([['stocks', 2]]);
  });

  it('hands out a document listed twice in the shared list once, for one key as for several', () => {
    const stockA = { _id: a, symbol: 'A' };
    const holdings = [{ stockId: a }, { stockId: [a, a] }];
    settled({ _id: 1, holdings, [arrivedAt]: [stockA, stockA] });
    expect(handedOut(holdings[0] as StoredDocument, 'stock')).toEqual([stockA]);
    expect(handedOut(holdings[1] as StoredDocument, 'stock')).toEqual([stockA]);
  });

  it('gives each element its own list, which changing does not change another element\'s', () => {
    const stockA = { _id: a, symbol: 'A' };
    const holdings = [{ stockId: a }, { stockId: a }];
    settled({ _id: 1, holdings, [arrivedAt]: [stockA] });
    const first = handedOut(holdings[0] as StoredDocument, 'stock') as StoredDocument[];
    expect(first).not.toBe(handedOut(holdings[1] as StoredDocument, 'stock'));
    first.pop();
    expect(handedOut(holdings[1] as StoredDocument, 'stock')).toEqual([stockA]);
  });
});
