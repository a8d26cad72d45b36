import { defineConfig } from 'docjoin';
import demo from '../../../examples/demo/docjoin.config';

/** The demo, writing without transactions (the ordered path): what a crash mid-mutation leaves, reconcile repairs. */
export default defineConfig({ ...demo, schema: '../../../examples/demo/schema', writes: { transactions: 'never' } });
