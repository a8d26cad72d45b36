import { generateDemoData } from '../../../seed/generate';
import { DEMO_INDEXES, defaultIndexName } from '../../../seed/indexes';

/** Values at a dotted path, descending into arrays the way MongoDB index keys do. */
function valuesAt(value: unknown, path: readonly string[]): unknown[] {
  if (Array.isArray(value)) return value.flatMap((item) => valuesAt(item, path));
  if (path.length === 0) return [value];
  if (value === null || typeof value !== 'object') return [];
  return valuesAt((value as Record<string, unknown>)[path[0]!], path.slice(1));
}

const data = generateDemoData(0.1);

test('the index list is exactly the join and lookup keys and the unique keys, with MongoDB default names', () => {
  expect(DEMO_INDEXES.map((spec) => `${spec.collection}.${defaultIndexName(spec.key)}${spec.unique ? ' unique' : ''}`)).toEqual([
    'comments.postId_1_createdAt_-1__id_-1',
    'books.publisherId_1',
    'logMessages.host.id_1_time_-1__id_-1',
    'tasks.ownerId_1',
    'tasks.due_1',
    'stocks.symbol_1 unique',
    'products.catalogNumber_1 unique',
    'hosts.ipaddr_1 unique',
    'books.authors.id_1',
    'products.parts.id_1',
    'authors.bookIds_1',
    'books.isbn_1 unique',
  ]);
});

test.each(DEMO_INDEXES.map((spec) => [`${spec.collection} ${defaultIndexName(spec.key)}`, spec] as const))(
  'every document has a value for every field of %s, and unique keys are unique',
  (_name, spec) => {
    const documents = data[spec.collection] as readonly object[];
    for (const field of Object.keys(spec.key)) {
      const missing = documents.filter((doc) => valuesAt(doc, field.split('.')).length === 0);
      expect(missing).toEqual([]);
    }
    if (spec.unique) {
      const [field] = Object.keys(spec.key);
      const values = documents.map((doc) => String(valuesAt(doc, field!.split('.'))[0]));
      expect(new Set(values).size).toBe(documents.length);
    }
  },
);
