import type { DemoData } from './demo-documents';
import { demoSizes } from './demo-sizes';
import { generateBooksAuthorsPublishers } from './generators/books-authors-publishers';
import { generateHostsLogMessages } from './generators/hosts-log-messages';
import { generatePeopleStocksTasks } from './generators/people-stocks-tasks';
import { generatePostsComments } from './generators/posts-comments';
import { generateProductsParts } from './generators/products-parts';

/**
 * The demo dataset at `scale`, as documents per collection. Pure and deterministic: the same scale
 * gives identical documents and ids on every run, with every denormalized copy consistent with its
 * source (see README.md for the rules). Each domain has its own PRNG stream, so changing one
 * generator never reshuffles the others.
 */
export function generateDemoData(scale: number): DemoData {
  const sizes = demoSizes(scale);
  const { people, stocks, tasks } = generatePeopleStocksTasks(sizes);
  const { posts, comments } = generatePostsComments(sizes);
  const { publishers, books, authors } = generateBooksAuthorsPublishers(sizes);
  const { products, parts } = generateProductsParts(sizes);
  const { hosts, logMessages } = generateHostsLogMessages(sizes);
  return { people, stocks, tasks, posts, comments, publishers, books, authors, products, parts, hosts, logMessages };
}

export { demoSizes, RECENT_COMMENTS_LIMIT, RECENT_LOGS_LIMIT } from './demo-sizes';
export type { DemoSizes } from './demo-sizes';
export * from './demo-documents';
