import { Binary, Decimal128, Double, Int32, Long, ObjectId } from 'mongodb';
import { kindOf, kindsOf, nullsOf, shapeOfDocuments } from '../../../src/infer-schema/value-shape';

describe('shapeOfDocuments', () => {
  test('tells BSON number types apart, as read with promoteValues: false', () => {
    expect([new Int32(3), new Double(3), Long.fromNumber(3), 3, 3.5, 2 ** 40].map(kindOf)).toEqual(['int', 'double', 'long', 'int', 'double', 'double']);
    expect([new ObjectId(), new Date(0), 'x', true, null, undefined, [1], { a: 1 }, Decimal128.fromString('1.5'), new Binary(Buffer.from('x'))].map(kindOf)).toEqual([
      'objectId', 'date', 'string', 'boolean', 'null', 'null', 'array', 'object', 'decimal', 'unsupported',
    ]);
  });

  test('counts each key per document, nulls apart, and merges sub-documents and array elements', () => {
    const shape = shapeOfDocuments([
      { name: 'a', size: new Int32(1), address: { city: 'X' }, tags: ['t', null], big: Long.fromString('9000000000') },
      { name: null, size: new Double(2.5), address: { city: 'Y', zip: '1' }, tags: [], price: Decimal128.fromString('9.99'), file: new Binary(Buffer.from('x')) },
      { size: new Int32(3) },
    ]);
    expect(shape.count).toBe(3);
    expect([...shape.fields.keys()]).toEqual(['name', 'size', 'address', 'tags', 'big', 'price', 'file']);
    const name = shape.fields.get('name')!;
    expect([name.count, nullsOf(name), kindsOf(name)]).toEqual([2, 1, ['string']]);
    expect(kindsOf(shape.fields.get('size')!)).toEqual(['int', 'double']);
    const address = shape.fields.get('address')!.object!;
    expect([address.count, address.fields.get('city')!.count, address.fields.get('zip')!.count]).toEqual([2, 2, 1]);
    const elements = shape.fields.get('tags')!.elements!;
    expect([elements.count, nullsOf(elements), kindsOf(elements)]).toEqual([2, 1, ['string']]);
    expect(shape.fields.get('big')!.wideLongs).toBe(1);
    expect(kindsOf(shape.fields.get('price')!)).toEqual(['decimal']);
    expect([...shape.fields.get('file')!.unsupported]).toEqual(['Binary']);
  });
});
