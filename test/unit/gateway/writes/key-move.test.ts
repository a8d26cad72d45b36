import { Double, ObjectId } from 'mongodb';
import { withDirectiveTypeDefs } from '../../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../../src/gateway/startup/write-model/build-write-model';
import { collectionsOfMoves, pathsBeforeMoves, planChildMoves } from '../../../../src/gateway/writes/reference-planner';

const model = buildWriteModelFromSdl(
  withDirectiveTypeDefs(/* GraphQL */ `
    type Query { posts: [Post!]! @list }
    type Post @collection(name: "posts") {
      id: ID!
      comments: [Comment!]! @join(localField: "_id", foreignField: "postId")
      commentCount: Int! @counter(of: "Post.comments")
      likeTotal: Float! @total(of: "Post.comments", field: "likes")
    }
    type Comment @collection(name: "comments") { id: ID! likes: Int! text: String post: Post @join(localField: "postId") }
  `),
);
const from = new ObjectId();
const to = new ObjectId();

describe('a comment re-pointed at another post (changeReference of Comment.post, or an update of postId)', () => {
  it('reads its key and the number its post totals, then moves the counter by one and the (Float, so double) total by its value, in one statement per post', () => {
    expect(pathsBeforeMoves(model, 'Comment', ['postId'])).toEqual(['postId', 'likes']);
    expect(pathsBeforeMoves(model, 'Comment', ['likes'])).toEqual(['postId', 'likes']);
    expect(collectionsOfMoves(model, 'Comment', ['postId'])).toEqual(['posts']);
    expect(collectionsOfMoves(model, 'Comment', ['text'])).toEqual([]);
    expect(planChildMoves(model, 'Comment', { postId: from, likes: 4 }, { postId: to }).map(({ statement }) => [statement.filter, statement.update])).toEqual([
      [{ _id: from }, { $inc: { commentCount: -1, likeTotal: new Double(-4) } }],
      [{ _id: to }, { $inc: { commentCount: 1, likeTotal: new Double(4) } }],
    ]);
  });

  it('moves nothing when it points at the same post again, and only adds when it pointed at none', () => {
    expect(planChildMoves(model, 'Comment', { postId: from, likes: 4 }, { postId: from })).toEqual([]);
    expect(planChildMoves(model, 'Comment', { likes: 4 }, { postId: to }).map(({ statement }) => [statement.filter, statement.update])).toEqual([
      [{ _id: to }, { $inc: { commentCount: 1, likeTotal: new Double(4) } }],
    ]);
  });

  it('moves the total by the difference when the liked count changes, and both when it moves and changes at once', () => {
    expect(planChildMoves(model, 'Comment', { postId: from, likes: 4 }, { likes: 6 }).map(({ statement }) => [statement.filter, statement.update])).toEqual([[{ _id: from }, { $inc: { likeTotal: new Double(2) } }]]);
    expect(planChildMoves(model, 'Comment', { postId: from, likes: 4 }, { postId: to, likes: 6 }).map(({ statement }) => [statement.filter, statement.update])).toEqual([
      [{ _id: from }, { $inc: { commentCount: -1, likeTotal: new Double(-4) } }],
      [{ _id: to }, { $inc: { commentCount: 1, likeTotal: new Double(6) } }],
    ]);
  });
});
