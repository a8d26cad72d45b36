import { defineConfig } from 'docjoin';
import demo from '../../../docjoin.config';

/** The demo, as if its data sat on a sharded cluster: log messages by host, comments by post, books by a hashed _id. */
export default defineConfig({
  ...demo,
  schema: '../../../schema',
  mongodb: { ...demo.mongodb, shardKeys: { logMessages: { 'host.id': 'hashed' }, comments: { postId: 1, _id: 1 }, books: { _id: 'hashed' } } },
});
