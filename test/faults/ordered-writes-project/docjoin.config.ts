import { defineConfig } from 'docjoin';
import demo from '../../../docjoin.config';

/** The demo, writing without transactions (the ordered path): what a crash mid-mutation leaves, reconcile repairs. */
export default defineConfig({ ...demo, schema: '../../../schema', writes: { transactions: 'never' } });
