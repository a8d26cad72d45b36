import { recommend } from '../../../../src/advise/recommend/recommend';
import { withDirectiveTypeDefs } from '../../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../../src/gateway/startup/write-model/build-write-model';
import type { FieldWorkload, WorkloadSummary } from '../../../../src/gateway/workload/workload-types';
import { aggregateWorkload } from './support/aggregate-workload';

const SDL = /* GraphQL */ `
  type Query { authors: [Author!]! @list }
  type Book @collection(name: "books") { id: ID! pages: Int! stars: Int weight: Float! author: Author @join(localField: "authorId") }
  type Author @collection(name: "authors") {
    id: ID!
    books: [Book!]! @join(localField: "_id", foreignField: "authorId")
    bookCount: Int! @counter(of: "Author.books")
    booksAggregate: BookAggregate! @aggregate(of: "books", fields: ["pages", "stars", "weight"])
  }
`;
const { storageMap } = buildWriteModelFromSdl(withDirectiveTypeDefs(SDL));

const workload = (selections: FieldWorkload['selections']): WorkloadSummary => aggregateWorkload('Author.booksAggregate', selections);

const adviceOf = (summary: WorkloadSummary) => recommend({ storageMap, workload: summary }).fields.find((field) => field.coordinate === 'Author.books')!;

describe('a @total for a list whose aggregates read unfiltered sums and means', () => {
  it('advises a total of the Int field those reads add up, with the round trips the parents then answer', () => {
    const advice = adviceOf(workload([{ fields: ['avg.pages', 'count', 'sum.pages'], operations: 70 }, { fields: ['sum.pages'], operations: 10 }, { fields: ['max.pages'], operations: 20 }]));
    expect(advice).toMatchObject({
      kind: 'add-total',
      totalField: 'Author.pagesTotal',
      summedField: 'pages',
      change: 'keep the sum of Book.pages over Author.books in each Author (Author.pagesTotal: Float! @total(of: "Author.books", field: "pages")): its unfiltered sums and means are then read from the parent',
    });
    expect(advice.evidence[0]).toBe('80 of 100 queries aggregating Author.books asked only for what a total of pages answers (its unfiltered sum or mean, the count)');
    expect(advice.effect.roundTripsPer1000Queries).toEqual({ before: 1000, after: 200 });
  });

  it('gives none for a Float field (its running total can differ from a fresh sum), for filtered or grouped reads, or under half the reads', () => {
    expect(adviceOf(workload([{ fields: ['sum.weight'], operations: 100 }])).kind).toBe('keep');
    expect(adviceOf(workload([{ fields: ['filtered', 'sum.pages'], operations: 60 }, { fields: ['groupBy', 'sum.pages'], operations: 40 }])).kind).toBe('keep');
    expect(adviceOf(workload([{ fields: ['sum.pages'], operations: 40 }, { fields: ['min.pages'], operations: 60 }])).kind).toBe('keep');
  });

  it('counts the means of a nullable field as reads the total cannot answer ($avg leaves out children without one), its sums as reads it can', () => {
    expect(adviceOf(workload([{ fields: ['avg.stars', 'count'], operations: 80 }, { fields: ['sum.stars'], operations: 20 }])).kind).toBe('keep');
    const sums = adviceOf(workload([{ fields: ['count', 'sum.stars'], operations: 80 }, { fields: ['avg.stars'], operations: 20 }]));
    expect(sums).toMatchObject({ kind: 'add-total', totalField: 'Author.starsTotal', change: expect.stringContaining('its unfiltered sums are then read from the parent') });
    expect(sums.evidence[0]).toBe('80 of 100 queries aggregating Author.books asked only for what a total of stars answers (its unfiltered sum or mean, the count)');
  });

  it("names each list's total apart when two lists of the parent aggregate the same field, or the short name is taken", () => {
    const twoLists = buildWriteModelFromSdl(
      withDirectiveTypeDefs(/* GraphQL */ `
        type Query { authors: [Author!]! @list }
        type Book @collection(name: "books") { id: ID! pages: Int! }
        type Author @collection(name: "authors") {
          id: ID!
          books: [Book!]! @join(localField: "_id", foreignField: "authorId")
          booksAggregate: BookAggregate! @aggregate(of: "books", fields: ["pages"])
          edited: [Book!]! @join(localField: "_id", foreignField: "editorId")
          editedAggregate: BookAggregate! @aggregate(of: "edited", fields: ["pages"])
          notes: [Note!]! @join(localField: "_id", foreignField: "authorId")
          notesAggregate: NoteAggregate! @aggregate(of: "notes", fields: ["words"])
          wordsTotal: Int
        }
        type Note @collection(name: "notes") { id: ID! words: Int! }
      `),
    ).storageMap;
    const read = (field: string, figure: string): FieldWorkload => ({ ...workload([]).fields[0]!, field, selections: [{ fields: [`sum.${figure}`], operations: 100 }] });
    const summary: WorkloadSummary = { ...workload([]), fields: [read('Author.booksAggregate', 'pages'), read('Author.editedAggregate', 'pages'), read('Author.notesAggregate', 'words')] };
    const advice = recommend({ storageMap: twoLists, workload: summary }).fields;
    const totalOf = (coordinate: string) => (advice.find((field) => field.coordinate === coordinate) as { totalField?: string } | undefined)?.totalField;
    expect([totalOf('Author.books'), totalOf('Author.edited'), totalOf('Author.notes')]).toEqual(['Author.booksPagesTotal', 'Author.editedPagesTotal', 'Author.notesWordsTotal']);
  });
});
