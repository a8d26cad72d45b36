import { withDirectiveTypeDefs } from '../../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../../src/gateway/startup/write-model/build-write-model';
import { planInsertDerived } from '../../../../src/gateway/writes/insert-planner';
import { countersMoved } from '../../../../src/gateway/writes/source-changes';

const SDL = /* GraphQL */ `
  type Query { posts: [Post!]! @list }
  type Post @collection(name: "posts") {
    id: ID!
    title: String!
    comments: [Comment!]! @join(localField: "_id", foreignField: "post.id", sort: "_id")
    commentCount: Int! @counter(of: "Post.comments")
  }
  type Comment @collection(name: "comments") {
    id: ID!
    text: String!
    post: Post @snapshot(path: "post", fields: ["id", "title", "commentCount"]) @join(localField: "post.id") @read(strategy: SNAPSHOT)
  }
`;
const model = buildWriteModelFromSdl(withDirectiveTypeDefs(SDL));

describe('countersMoved', () => {
  it('names the counter an insert moves, on its parent, and not the copies of it that follow', () => {
    const planned = planInsertDerived(model, 'Comment', { _id: 'c1', text: 'hi', post: { id: 'p1' } });
    // The post's $inc, and the $inc of the copies of its count in its comments.
    expect(planned.map((update) => update.collection)).toEqual(['posts', 'comments']);
    expect(countersMoved(model, planned)).toEqual([{ typeName: 'Post', fields: ['commentCount'], id: 'p1' }]);
  });

  it('finds nothing in updates that move no counter', () => {
    expect(countersMoved(model, [{ collection: 'posts', statement: { filter: { _id: 'p1' }, update: { $set: { title: 'x' } }, multi: false } }])).toEqual([]);
  });
});
