import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSchema, getOperationAST, Kind, parse, print, validate, type DocumentNode } from 'graphql';
import * as client from '../../../generated/client/graphql';
import { DEMO_DIR } from '../../support/demo-project';

const OPERATIONS_DIR = resolve(DEMO_DIR, 'operations');
const schema = buildSchema(readFileSync(resolve(DEMO_DIR, 'schema.public.graphql'), 'utf8'));
const operationFiles = readdirSync(OPERATIONS_DIR).filter((name) => name.endsWith('.graphql')).sort();
const operations = parse(operationFiles.map((name) => readFileSync(resolve(OPERATIONS_DIR, name), 'utf8')).join('\n'));
const queryNames = operations.definitions.flatMap((definition) => (definition.kind === Kind.OPERATION_DEFINITION && definition.name ? [definition.name.value] : []));

function generatedDocument(name: string): DocumentNode {
  const document: unknown = (client as Record<string, unknown>)[`${name}Document`];
  if (!document || typeof document !== 'object' || (document as DocumentNode).kind !== Kind.DOCUMENT) throw new Error(`no ${name}Document in src/generated/client`);
  return document as DocumentNode;
}

describe('example operations', () => {
  it('are the ten documented queries, one mutation and one fragment', () => {
    expect(queryNames).toEqual(['AuthorWithBooks', 'BooksWithAuthors', 'HostLogs', 'OpenTasks', 'PersonProfile', 'PostCommentsPage', 'PostStats', 'ProductParts', 'RecentPosts', 'RenameAuthor', 'TasksDueBefore']);
    const mutations = operations.definitions.flatMap((definition) => (definition.kind === Kind.OPERATION_DEFINITION && definition.operation === 'mutation' ? [definition.name?.value] : []));
    expect(mutations).toEqual(['RenameAuthor']);
    expect(operations.definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)).toHaveLength(1);
  });

  it('validate against the public schema', () => {
    expect(validate(schema, operations).map((error) => error.message)).toEqual([]);
  });

  it.each(queryNames)('%s has a typed document node carrying the operation and the fragments it spreads', (name) => {
    const document = generatedDocument(name);
    expect(getOperationAST(document, name)?.name?.value).toBe(name);
    const source = operations.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION && definition.name?.value === name);
    expect(print(document)).toContain(print(source!));
    expect(validate(schema, document).map((error) => error.message)).toEqual([]);
  });
});
