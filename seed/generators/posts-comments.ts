import { DAY_MS, DEMO_EPOCH_MS } from '../demo-clock';
import type { CommentDoc, PostDoc } from '../demo-documents';
import { RECENT_COMMENTS_LIMIT } from '../demo-sizes';
import { demoIdSequence } from '../deterministic-object-ids';
import { createPrng, seedFromLabel, type Prng } from '../prng';
import {
  COMMENTER_HANDLES, COMMENT_TEXTS, FIRST_NAMES, LAST_NAMES, POST_SENTENCES, POST_TITLE_TEMPLATES, POST_TOPICS,
} from '../vocabulary';

/**
 * Posts and their comments. Each post embeds copies of its newest comments (newest first, bounded)
 * and an exact commentCount; the comments collection holds every comment with its postId.
 */
export function generatePostsComments(counts: { posts: number; comments: number }): {
  posts: PostDoc[];
  comments: CommentDoc[];
} {
  const rng = createPrng(seedFromLabel('posts'));
  const nextPostId = demoIdSequence('posts');
  const nextCommentId = demoIdSequence('comments');
  const commentCounts = distributeComments(rng, counts.posts, counts.comments);
  const posts: PostDoc[] = [];
  const comments: CommentDoc[] = [];
  for (let p = 0; p < counts.posts; p++) {
    const createdAtMs = DEMO_EPOCH_MS - rng.int(2, 730) * DAY_MS + rng.int(0, DAY_MS - 1);
    const post: PostDoc = {
      _id: nextPostId(),
      title: rng.pick(POST_TITLE_TEMPLATES).replace('{topic}', rng.pick(POST_TOPICS)),
      body: generateBody(rng),
      author: `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`,
      createdAt: new Date(createdAtMs),
      commentCount: 0,
      recentComments: [],
    };
    const postComments = generateCommentsFor(rng, nextCommentId, post, commentCounts[p] ?? 0);
    post.commentCount = postComments.length;
    // Comments are generated oldest first, so the newest are at the end.
    post.recentComments = postComments.slice(-RECENT_COMMENTS_LIMIT).reverse().map(copyComment);
    posts.push(post);
    for (const comment of postComments) comments.push(comment);
  }
  return { posts, comments };
}

/**
 * How many comments each post gets, summing exactly to `total`. A few posts (every 50th-ish)
 * get 0, 1 and 2 comments so short recentComments arrays exist; the rest are skewed so a handful
 * of posts are busy and most are quiet, and each gets at least the embedded bound when the total allows.
 */
function distributeComments(rng: Prng, postCount: number, total: number): number[] {
  const counts = new Array<number>(postCount).fill(0);
  const eligible: number[] = [];
  let remaining = total;
  for (let p = 0; p < postCount; p++) {
    const forced = p % 50 - 47; // posts 47, 48, 49 of every 50 get 0, 1, 2 comments
    if (forced >= 0 && forced <= remaining) {
      counts[p] = forced;
      remaining -= forced;
    } else {
      eligible.push(p);
    }
  }
  if (eligible.length === 0) {
    // Only possible at tiny scales: give what is left to the first post.
    counts[0] = (counts[0] ?? 0) + remaining;
    return counts;
  }
  const floor = Math.min(RECENT_COMMENTS_LIMIT, Math.floor(remaining / eligible.length));
  for (const p of eligible) counts[p] = floor;
  remaining -= floor * eligible.length;
  const popularityOrder = rng.shuffle([...eligible]);
  for (; remaining > 0; remaining--) {
    const p = popularityOrder[Math.floor(rng.next() ** 2 * popularityOrder.length)] as number;
    counts[p] = (counts[p] ?? 0) + 1;
  }
  return counts;
}

/** `count` comments between the post's creation and the demo epoch, strictly increasing in time. */
function generateCommentsFor(
  rng: Prng,
  nextCommentId: () => CommentDoc['_id'],
  post: PostDoc,
  count: number,
): CommentDoc[] {
  const startMs = post.createdAt.getTime();
  const gapMs = Math.floor((DEMO_EPOCH_MS - startMs) / (count + 1));
  const comments: CommentDoc[] = [];
  for (let c = 0; c < count; c++) {
    // Jitter within the first half of each gap keeps times distinct and ordered.
    const createdAtMs = startMs + (c + 1) * gapMs - rng.int(0, Math.floor(gapMs / 2));
    comments.push({
      _id: nextCommentId(),
      postId: post._id,
      author: rng.pick(COMMENTER_HANDLES),
      comment: rng.pick(COMMENT_TEXTS),
      createdAt: new Date(createdAtMs),
    });
  }
  return comments;
}

function generateBody(rng: Prng): string {
  const sentences: string[] = [];
  const count = rng.int(2, 4);
  for (let i = 0; i < count; i++) sentences.push(rng.pick(POST_SENTENCES));
  return sentences.join(' ');
}

/** The embedded copy is a separate object, so changing one never silently changes the other in memory. */
function copyComment(comment: CommentDoc): CommentDoc {
  return { ...comment, createdAt: new Date(comment.createdAt.getTime()) };
}
