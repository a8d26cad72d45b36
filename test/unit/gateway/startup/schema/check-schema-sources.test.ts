import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SchemaSourceError, StorageConfigError } from '../../../../../src/gateway/errors/internal-errors';
import { checkSchemaSources } from '../../../../../src/gateway/startup/schema/check-schema-sources';
import { schemaFilePaths } from '../../../../../src/gateway/startup/schema/schema-sources';
import { DEMO_DIR } from '../../../../support/demo-project';

/** The problems checkSchemaSources reports for these files, or [] when it accepts them. */
function problemsOf(files: Record<string, string>): readonly string[] {
  try {
    checkSchemaSources(Object.entries(files).map(([name, body]) => ({ name, body })));
    return [];
  } catch (error) {
    if (!(error instanceof SchemaSourceError)) throw error;
    return error.problems;
  }
}

const NOTES = `type Query { notes: [Note!]! @list }
type Note @collection(name: "notes") {
  id: ID!
  text: String!
  owner: User @join(localField: "ownerId") @read(strategy: JOIN)
}
`;
const USERS = `type User @collection(name: "users") {
  id: ID!
  name: String!
}
`;

it("accepts the demo's SDL and the shop's", () => {
  for (const config of [DEMO_DIR, resolve(DEMO_DIR, 'examples/shop')]) {
    const files = schemaFilePaths(['schema'], config);
    expect(problemsOf(Object.fromEntries(files.map((file) => [file, readFileSync(file, 'utf8')])))).toEqual([]);
  }
  expect(problemsOf({ 'notes.graphql': NOTES, 'users.graphql': USERS })).toEqual([]);
});

it('reads a file the schema paths reach twice (a folder and a file in it) once', () => {
  const once = schemaFilePaths(['schema'], DEMO_DIR);
  expect(schemaFilePaths(['schema', 'schema/domain.graphql', './schema'], DEMO_DIR)).toEqual(once);
  expect(once.length).toBeGreaterThan(0);
});

it('names the file, line and column of a syntax error', () => {
  expect(problemsOf({ 'notes.graphql': NOTES.replace('text: String!', 'text: String!!'), 'users.graphql': USERS })).toEqual([
    'notes.graphql:4:16: Syntax Error: Expected Name, found "!".',
  ]);
});

it("names Type.field of a misspelt directive argument, with graphql-js's suggestion, in the file that holds it", () => {
  expect(problemsOf({ 'users.graphql': USERS, 'notes.graphql': NOTES.replace('localField', 'localFeild') })).toEqual([
    'notes.graphql:5:21 (Note.owner): Unknown argument "localFeild" on directive "@join". Did you mean "localField"?',
    'notes.graphql:5:15 (Note.owner): Directive "@join" argument "localField" of type "String!" is required, but it was not provided.',
  ]);
});

it('names an unknown directive and an unknown type where they are used', () => {
  expect(problemsOf({ 'notes.graphql': NOTES.replace('@collection(name: "notes")', '@colection(name: "notes")'), 'users.graphql': USERS.replace('name: String!', 'name: Strin!') })).toEqual([
    'notes.graphql:2:11 (Note): Unknown directive "@colection". Did you mean "@collection"?',
    'users.graphql:3:9 (User.name): Unknown type "Strin". Did you mean "String"?',
  ]);
  expect(problemsOf({ 'notes.graphql': NOTES, 'users.graphql': USERS.replace('name: String!', 'name: String!\n  meta: JSON') })).toEqual([
    'users.graphql:4:9 (User.meta): Unknown type "JSON". Declare it (scalar JSON for a scalar of your own; docjoin adds DateTime, Decimal and Long when the SDL uses them).',
  ]);
});

it("refuses what only a whole schema breaks, and a name docjoin's SDL declares, where the project's file has it", () => {
  expect(problemsOf({ 'notes.graphql': `interface Named { id: ID! title: String! }\n${NOTES.replace('type Note @collection', 'type Note implements Named @collection')}`, 'users.graphql': USERS.replace('name: String!', '__legacy: String') })).toEqual([
    'notes.graphql:1:27 (Named.title): Interface field Named.title expected but Note does not provide it.',
    'users.graphql:3:3 (User.__legacy): Name "__legacy" must not begin with "__", which is reserved by GraphQL introspection.',
  ]);
  expect(problemsOf({ 'notes.graphql': NOTES, 'users.graphql': `${USERS}enum AccessAction { LOGIN LOGOUT }\n` })).toEqual([
    `users.graphql:5:6 (AccessAction): There can be only one type named "AccessAction". docjoin's own SDL declares that name; rename yours.`,
  ]);
});

it('names every place a name is declared twice, across the files', () => {
  expect(problemsOf({ 'notes.graphql': NOTES, 'users.graphql': USERS, 'more-users.graphql': `\n${USERS}` })).toEqual([
    'users.graphql:1:6 (User): There can be only one type named "User". Also at more-users.graphql:2:6.',
  ]);
  expect(problemsOf({ 'notes.graphql': NOTES.replace('  text: String!\n', '  text: String!\n  text: String\n'), 'users.graphql': USERS })).toEqual([
    'notes.graphql:4:3 (Note.text): Field "Note.text" can only be defined once. Also at notes.graphql:5:3.',
  ]);
});

it('lists the values an enum argument takes when it is given another', () => {
  expect(problemsOf({ 'notes.graphql': NOTES.replace('strategy: JOIN', 'strategy: SNAPSOT'), 'users.graphql': USERS })).toEqual([
    'notes.graphql:5:60 (Note.owner): Argument "strategy" has invalid value SNAPSOT. ReadStrategy takes EMBEDDED, JOIN, SNAPSHOT, LOOKUP.',
  ]);
});

it('is a StorageConfigError whose message is the problems alone, one line each', () => {
  let thrown: unknown;
  try {
    checkSchemaSources([{ name: 'notes.graphql', body: NOTES.replace('localField', 'localFeild') }, { name: 'users.graphql', body: USERS }]);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(StorageConfigError);
  expect((thrown as Error).message.split('\n')).toEqual([
    'The schema has 2 errors:',
    '  - notes.graphql:5:21 (Note.owner): Unknown argument "localFeild" on directive "@join". Did you mean "localField"?',
    '  - notes.graphql:5:15 (Note.owner): Directive "@join" argument "localField" of type "String!" is required, but it was not provided.',
  ]);
  expect(() => schemaFilePaths(['nowhere'], DEMO_DIR)).toThrow(new SchemaSourceError(['schema: nowhere does not exist; list your SDL files or folders in the config\'s "schema"']));
});
