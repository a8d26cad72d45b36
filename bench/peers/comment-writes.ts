import type { Db, MongoClient, ObjectId, UpdateFilter } from 'mongodb';
import { notFound } from './peer-schema';

export interface NewComment {
  readonly _id: ObjectId;
  readonly postId: ObjectId;
  readonly author: string;
  readonly comment: string;
  readonly createdAt: Date;
}

/** The fields of a stored post the comment writes touch. */
export interface CommentedPost {
  _id: ObjectId;
  title: string;
  commentCount: number;
  recentComments: NewComment[];
}

/** The comment on the post's bounded `recentComments` (the newest 3, newest first, as the seed keeps them), counted. */
export function commentOnPost(comment: NewComment): UpdateFilter<CommentedPost> {
  return { $push: { recentComments: { $each: [{ ...comment }], $sort: { createdAt: -1, _id: -1 }, $slice: 3 } }, $inc: { commentCount: 1 } };
}

/**
 * addComment as the driver-based peers write it: the comment, and commentOnPost, in one transaction
 * (retried by the driver on transient errors). Three round trips: insert, update, commit.
 */
export async function addCommentInTransaction(client: MongoClient, db: Db, comment: NewComment): Promise<void> {
  const session = client.startSession();
  try {
    await session.withTransaction(async () => {
      await db.collection<NewComment>('comments').insertOne({ ...comment }, { session });
      const updated = await db.collection<CommentedPost>('posts').updateOne({ _id: comment.postId }, commentOnPost(comment), { session });
      if (updated.matchedCount === 0) throw notFound(`no post with id ${comment.postId.toHexString()}`);
    });
  } finally {
    await session.endSession();
  }
}
