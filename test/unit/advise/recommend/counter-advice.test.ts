import { recommend } from '../../../../src/advise/recommend/recommend';
import { withDirectiveTypeDefs } from '../../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../../src/gateway/startup/write-model/build-write-model';
import { aggregateWorkload } from './support/aggregate-workload';

/** An author whose books' aggregate is read for a bare count, and who declares `taken` fields of its own. */
function counterAdvised(taken: readonly string[]): { kind: string; counterField?: string; change: string } {
  const { storageMap } = buildWriteModelFromSdl(
    withDirectiveTypeDefs(/* GraphQL */ `
      type Query { authors: [Author!]! @list }
      type Book @collection(name: "books") { id: ID! pages: Int! }
      type Author @collection(name: "authors") {
        id: ID!
        ${taken.map((name) => `${name}: Int`).join('\n')}
        books: [Book!]! @join(localField: "_id", foreignField: "authorId")
        booksAggregate: BookAggregate! @aggregate(of: "books", fields: ["pages"])
      }
    `),
  );
  const workload = aggregateWorkload('Author.booksAggregate', [{ fields: ['count'], operations: 100 }]);
  return recommend({ storageMap, workload }).fields.find((field) => field.coordinate === 'Author.books') as { kind: string; counterField?: string; change: string };
}

describe('a @counter advised for a list whose aggregates read a bare count', () => {
  it('is named <list>Count', () => {
    expect(counterAdvised([])).toMatchObject({ kind: 'add-counter', counterField: 'Author.booksCount', change: expect.stringContaining('(Author.booksCount: Int! @counter(of: "Author.books"))') });
  });

  it('takes another name when the parent declares that one already (a count it imported), never a second field of one name', () => {
    expect(counterAdvised(['booksCount'])).toMatchObject({ kind: 'add-counter', counterField: 'Author.booksCounter' });
    expect(counterAdvised(['booksCount', 'booksCounter'])).toMatchObject({ kind: 'add-counter', counterField: 'Author.booksCounter2' });
  });
});
