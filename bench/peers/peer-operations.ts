/** The operations every implementation of the peer benchmark serves, and the names the runner and the children share. */

export type OperationName = 'books' | 'people' | 'hosts' | 'posts' | 'authors' | 'addComment';

export interface PeerOperation {
  readonly name: OperationName;
  /** What it reads, in a few words (the report's and the chart's label). */
  readonly summary: string;
  readonly query: string;
  readonly kind: 'query' | 'mutation';
  /** Reads a relation through a join (not only the parent's own, embedded or snapshot fields): where the floor target applies. */
  readonly nested: boolean;
}

/** Every comment the benchmark adds has this author and text, so each implementation answers the same data. */
export const ADDED_COMMENT = { author: 'peer-bench', comment: 'measured by bench/peers' } as const;

export const PEER_OPERATIONS: readonly PeerOperation[] = [
  { name: 'books', summary: 'books(first: 50) → publisher (join), authors (snapshot)', kind: 'query', nested: true, query: '{ books(first: 50) { name publisher { name } authors { name thumbnailUrl } } }' },
  {
    name: 'people',
    summary: 'people(first: 100) → holdings.stock, tasks → owner',
    kind: 'query',
    nested: true,
    query: '{ people(first: 100) { firstName holdings { numberHeld stock { symbol open } } tasks { description owner { lastName } } } }',
  },
  { name: 'hosts', summary: 'hosts(first: 20) → logs(first: 5) (reverse join)', kind: 'query', nested: true, query: '{ hosts(first: 20) { name logs(first: 5) { message time } } }' },
  { name: 'posts', summary: 'posts(first: 10) → recentComments (embedded)', kind: 'query', nested: false, query: '{ posts(first: 10) { title recentComments { author comment } } }' },
  { name: 'authors', summary: 'authors(first: 50) → books → publisher → books(first: 3)', kind: 'query', nested: true, query: '{ authors(first: 50) { name books { name publisher { name books(first: 3) { name } } } } }' },
  {
    name: 'addComment',
    summary: 'mutation addComment → post (transaction)',
    kind: 'mutation',
    nested: false,
    query: `mutation AddComment($postId: ID!) { addComment(postId: $postId, author: "${ADDED_COMMENT.author}", comment: "${ADDED_COMMENT.comment}") { author comment post { title } } }`,
  },
];

export function operationNamed(name: OperationName): PeerOperation {
  const operation = PEER_OPERATIONS.find((candidate) => candidate.name === name);
  if (operation === undefined) throw new Error(`no peer operation named ${JSON.stringify(name)}`);
  return operation;
}

/** The variables of one request: only the mutation takes any (the post it comments on). */
export type OperationVariables = Readonly<Record<string, string>>;
