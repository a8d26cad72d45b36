import { addBoundedArraySdl, addCounterSdl } from '../../../src/schema-edits/derived-field-sdl';

const SDL = /* GraphQL */ `type Post @collection(name: "posts") {
  id: ID!
  comments(first: Int = 20): [Comment!]!
    @join(localField: "_id", foreignField: "postId", sort: "-createdAt")
  tags: [Tag!]! @join(localField: "_id", foreignField: "postId")
}
`;
const files = [{ file: 'schema.graphql', text: SDL }];

describe('the SDL of a new derived field', () => {
  it('declares a counter on the line after the relation it counts', () => {
    const change = addCounterSdl(files, 'Post.commentCount', 'Post.comments');
    expect(change).toEqual({
      file: 'schema.graphql',
      text: SDL.replace('sort: "-createdAt")\n', 'sort: "-createdAt")\n  commentCount: Int! @counter(of: "Post.comments")\n'),
      existed: false,
    });
    expect(addCounterSdl([{ file: 'schema.graphql', text: change.text }], 'Post.commentCount', 'Post.comments')).toEqual({ file: 'schema.graphql', text: change.text, existed: true });
  });

  it('declares a bounded array with the relation join, its sort and the limit', () => {
    const change = addBoundedArraySdl(files, 'Post.recentComments', 'Post.comments', 3);
    expect(change.text).toBe(
      SDL.replace(
        'sort: "-createdAt")\n',
        'sort: "-createdAt")\n  recentComments: [Comment!]!\n    @embedded\n    @join(localField: "_id", foreignField: "postId", sort: "-createdAt", limit: 3)\n    @read(strategy: EMBEDDED)\n',
      ),
    );
    expect(addBoundedArraySdl([{ file: 'schema.graphql', text: change.text }], 'Post.recentComments', 'Post.comments', 3).existed).toBe(true);
  });

  it('refuses what it cannot declare, naming the field and the fix', () => {
    expect(() => addCounterSdl(files, 'Post.count', 'Author.books')).toThrow('Post.count must derive from a relation of Post itself; got Author.books');
    expect(() => addCounterSdl(files, 'Post.tags', 'Post.comments')).toThrow('Post.tags is already declared, and not as @counter(of: "Post.comments"); pick another field name');
    expect(() => addBoundedArraySdl(files, 'Post.recentTags', 'Post.tags', 3)).toThrow(`Post.tags's @join has no sort; a bounded array keeps the first 3 children in an order, so give the join a sort (e.g. sort: "-createdAt")`);
    expect(() => addBoundedArraySdl(files, 'Post.recent', 'Post.id', 3)).toThrow('Post.id is not a reverse @join (children pointing at the parent, with foreignField); a bounded array copies such children');
  });
});
