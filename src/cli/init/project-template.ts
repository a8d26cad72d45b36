/**
 * What `docjoin init` writes: a config, an SDL that uses generated reads and writes with a snapshot and
 * a counter, and a seed with the indexes that SDL needs. Plain JavaScript, so a project runs with no
 * build step; a `docjoin.config.ts` works the same.
 */

export const CONFIG_FILE = `import { defineConfig } from 'docjoin';
import { seed } from './seed.mjs';

// docjoin's project config: \`docjoin serve\`, \`explain\`, \`reconcile\`, \`codegen\` and \`seed\` read it.
export default defineConfig({
  // SDL files or folders of .graphql files, relative to this file.
  schema: 'schema',
  // Without a uri (or MONGODB_URI), \`docjoin serve\` starts its embedded server and runs \`seed\` on it.
  mongodb: { db: 'blog' },
  seed,
  // server: { port: 4000, cors: { origin: 'http://localhost:3000' } },
  // Typed client code: install @graphql-codegen/cli and @graphql-codegen/client-preset, write a codegen.yml
  // (the README's "Typed code for your team" has one to start from), then: docjoin codegen
  // codegen: { publicSchema: 'schema.public.graphql', config: 'codegen.yml' },
});
`;

export const SCHEMA_FILE = `# Each post keeps a snapshot of its author's name; writes keep it true, and \`docjoin reconcile\` checks it.

type Query {
  author(id: ID!): Author @find
  authors(first: Int = 20, after: ID): [Author!]! @list(sort: "name")
  post(id: ID!): Post @find
  posts(first: Int = 20, after: ID, author: ID): [Post!]! @list(sort: "-_id")
}

type Mutation {
  createAuthor(input: AuthorInput!): Author! @create
  updateAuthor(id: ID!, input: AuthorPatch!): Author! @update
  createPost(input: PostInput!): Post! @create
  deletePost(id: ID!): ID! @delete(type: "Post")
}

type Author @collection(name: "authors") {
  id: ID!
  name: String!
  posts(first: Int = 20, after: ID): [Post!]! @join(localField: "_id", foreignField: "author.id", sort: "-_id")
  postCount: Int! @counter(of: "Author.posts")
}

type Post @collection(name: "posts") {
  id: ID!
  title: String!
  body: String!
  author: Author @snapshot(path: "author", fields: ["id", "name"]) @join(localField: "author.id") @read(strategy: SNAPSHOT)
}

input AuthorInput {
  name: String!
}

input AuthorPatch {
  name: String
}

input PostInput {
  title: String!
  body: String!
  author: ID!
}
`;

export const SEED_FILE = `import { ObjectId } from 'mongodb';

/** Sample data for the embedded server (and \`docjoin seed --mongo-uri …\`), with the indexes the schema needs. */
export async function seed(db, { onProgress }) {
  const ada = new ObjectId();
  const authors = [{ _id: ada, name: 'Ada Lovelace', postCount: 2 }, { _id: new ObjectId(), name: 'Grace Hopper', postCount: 0 }];
  const posts = [
    { title: 'Notes', body: 'On the Analytical Engine.', author: { id: ada, name: 'Ada Lovelace' } },
    { title: 'Bernoulli numbers', body: 'A program.', author: { id: ada, name: 'Ada Lovelace' } },
  ];
  for (const [name, documents] of [['authors', authors], ['posts', posts]]) {
    await db.collection(name).deleteMany({});
    await db.collection(name).insertMany(documents);
    onProgress(name, documents.length, documents.length);
  }
  await db.collection('authors').createIndex({ name: 1, _id: 1 });
  await db.collection('posts').createIndex({ 'author.id': 1, _id: -1 });
}
`;

/**
 * npm scripts `init` adds to package.json, next to any the project has. `exec`: npm runs a script
 * through `sh`, which would die of npm's SIGTERM and leave the server running; exec'd, the server gets
 * the signal and drains.
 */
export const SCRIPTS: Readonly<Record<string, string>> = {
  start: 'exec docjoin serve',
  explain: 'docjoin explain',
  reconcile: 'docjoin reconcile',
  codegen: 'docjoin codegen',
};
