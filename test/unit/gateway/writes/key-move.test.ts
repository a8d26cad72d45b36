import { ObjectId } from 'mongodb';
import { withDirectiveTypeDefs } from '../../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../../src/gateway/startup/write-model/build-write-model';
import { collectionsOfKeyMove, pathsBeforeMove, planKeyMove } from '../../../../src/gateway/writes/reference-planner';

const model = buildWriteModelFromSdl(
  withDirectiveTypeDefs(/* GraphQL */ `
    type Query { posts: [Post!]! @list }
    type Post @collection(name: "posts") {
      id: ID!
      comments: [Comment!]! @join(localField: "_id", foreignField: "postId")
      commentCount: Int! @counter(of: "Post.comments")
      likeTotal: Float! @total(of: "Post.comments", field: "likes")
    }
    type Comment @collection(name: "comments") { id: ID! likes: Int! post: Post @join(localField: "postId") }
  `),
);
const from = new ObjectId();
const to = new ObjectId();

describe('a comment re-pointed at another post (changeReference of Comment.post)', () => {
  it('reads its key and the number its post totals, then moves the counter by one and the total by its value, in one statement per post', () => {
    expect(pathsBeforeMove(model, 'Comment', 'postId')).toEqual(['postId', 'likes']);
    expect(collectionsOfKeyMove(model, 'Comment', 'postId')).toEqual(['posts']);
    expect(planKeyMove(model, 'Comment', 'postId', { postId: from, likes: 4 }, to).map(({ statement }) => [statement.filter, statement.update])).toEqual([
      [{ _id: from }, { $inc: { commentCount: -1, likeTotal: -4 } }],
      [{ _id: to }, { $inc: { commentCount: 1, likeTotal: 4 } }],
    ]);
  });

  it('moves nothing when it points at the same post again, and only adds when it pointed at none', () => {
    expect(planKeyMove(model, 'Comment', 'postId', { postId: from, likes: 4 }, from)).toEqual([]);
    expect(planKeyMove(model, 'Comment', 'postId', { likes: 4 }, to).map(({ statement }) => [statement.filter, statement.update])).toEqual([
      [{ _id: to }, { $inc: { commentCount: 1, likeTotal: 4 } }],
    ]);
  });
});
