import { ObjectId, type Db } from 'mongodb';

/**
 * A small project for migrations of a snapshot: 3 authors, 5 books copying their authors' id and name
 * (book i copies authors i mod 3 and (i+1) mod 3). WIDENED copies thumbnailUrl too.
 */
export const BOOKS_SDL = /* GraphQL */ `type Query {
  books: [Book!]! @list
}

type Book @collection(name: "books") {
  id: ID!
  title: String!
  authors: [Author!]!
    @snapshot(path: "authors", fields: ["id", "name"])
    @join(localField: "authors.id")
    @read(strategy: SNAPSHOT)
}

type Author @collection(name: "authors") {
  id: ID!
  name: String!
  thumbnailUrl: String!
}
`;
export const WIDENED_BOOKS_SDL = BOOKS_SDL.replace('fields: ["id", "name"]', 'fields: ["id", "name", "thumbnailUrl"]');

export const authorIds = [1, 2, 3].map((n) => new ObjectId(`6955b90000000000000000a${n}`));
export const bookIds = [1, 2, 3, 4, 5].map((n) => new ObjectId(`6955b90000000000000000b${n}`));
export const authorOf = (n: number) => ({ _id: authorIds[n]!, name: `Author ${n}`, thumbnailUrl: `https://img.example/${n}.png` });

/** The 3 authors and the 5 books, their copies holding id and name only. */
export async function insertBooksCopyingAuthors(db: Db): Promise<void> {
  await db.collection('authors').insertMany([0, 1, 2].map(authorOf));
  await db.collection('books').insertMany(bookIds.map((_id, i) => ({ _id, title: `Book ${i}`, authors: [i % 3, (i + 1) % 3].map((n) => ({ id: authorIds[n]!, name: `Author ${n}` })) })));
}
