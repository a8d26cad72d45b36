import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildClientSchema, GraphQLScalarType, introspectionFromSchema, Kind, parse, printSchema, visit, type DocumentNode } from 'graphql';
import type { IResolvers } from '@graphql-tools/utils';
import { rootResolvers } from '../../../resolvers';
import { PUBLIC_SCHEMA_HEADER, printPublicSchema } from '../../../src/codegen/public-schema';
import { buildGatewaySchema } from '../../../src/gateway/startup/schema/build-gateway-schema';
import { aggregateTypeDefs } from '../../../src/gateway/startup/aggregates/aggregate-type-defs';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { DEMO_DIR, demoTypeDefs } from '../../support/demo-project';

const publicSchemaText = readFileSync(resolve(DEMO_DIR, 'schema.public.graphql'), 'utf8');
const publicSchema = parse(publicSchemaText);
const domain = parse(readFileSync(resolve(DEMO_DIR, 'schema/domain.graphql'), 'utf8'));

// The demo domain's types as of writing; the domain may grow, the comparison below covers whatever it has.
const DEMO_TYPES = ['DateTime', 'Query', 'Person', 'Address', 'ContactDetail', 'EmailContact', 'PhoneContact', 'SocialContact', 'Holding', 'Stock',
  'Task', 'Post', 'Comment', 'Publisher', 'Book', 'Author', 'Product', 'Part', 'Host', 'LogMessage'];

/** `Type` → its field names (object types), member names (unions) or [] (scalars), in SDL order. */
function typeShapes(document: DocumentNode): Map<string, string[]> {
  const shapes = new Map<string, string[]>();
  for (const definition of document.definitions) {
    switch (definition.kind) {
      case Kind.OBJECT_TYPE_DEFINITION:
        shapes.set(definition.name.value, (definition.fields ?? []).map((field) => field.name.value));
        break;
      case Kind.UNION_TYPE_DEFINITION:
        shapes.set(definition.name.value, (definition.types ?? []).map((type) => type.name.value));
        break;
      case Kind.SCALAR_TYPE_DEFINITION:
      case Kind.ENUM_TYPE_DEFINITION:
        shapes.set(definition.name.value, []);
        break;
      default:
        break;
    }
  }
  return shapes;
}

function directiveUses(document: DocumentNode): string[] {
  const names: string[] = [];
  visit(document, { Directive: (node) => void names.push(node.name.value) });
  return names;
}

describe('schema.public.graphql', () => {
  it('has no storage directive, directive definition or ReadStrategy enum', () => {
    expect(directiveUses(publicSchema)).toEqual([]);
    expect(publicSchema.definitions.filter((definition) => definition.kind === Kind.DIRECTIVE_DEFINITION)).toEqual([]);
    expect(typeShapes(publicSchema).has('ReadStrategy')).toBe(false);
    expect(publicSchemaText).not.toMatch(/@(collection|path|embedded|join|snapshot|read)\b|ReadStrategy/);
  });

  it('has every type of the domain with the same fields and union members, and nothing else but what docjoin provides: DateTime and the aggregate types', () => {
    expect(typeShapes(domain).has('DateTime')).toBe(false);
    const generated = typeShapes(parse(aggregateTypeDefs([domain])!));
    expect([...generated.keys()]).toEqual(expect.arrayContaining(['CommentAggregate', 'TaskAggregate', 'TaskGroup', 'AggregateGroupOrder']));
    const expected = new Map([['DateTime', []], ...typeShapes(domain), ...generated]);
    expect([...expected.keys()]).toEqual(expect.arrayContaining(DEMO_TYPES));
    expect(typeShapes(publicSchema)).toEqual(expected);
  });

  it('keeps the domain descriptions and argument defaults clients rely on', () => {
    expect(publicSchemaText).toContain('"""An ISO-8601 date-time, e.g. `2026-11-21T09:30:00.000Z`."""\nscalar DateTime');
    const bounds = '    """At most 100: a larger value is an error."""\n    first: Int = 20\n';
    expect(publicSchemaText).toContain(`  comments(\n${bounds}\n    """The id of the last item of the previous page."""\n    after: ID\n  ): [Comment!]!\n`);
    expect(publicSchemaText).toContain(`  logs(\n${bounds}    after: ID\n    before: DateTime\n  ): [LogMessage!]!\n`);
  });

  it('is exactly what introspection of the running gateway schema prints', () => {
    const { schema } = buildGatewaySchema({ typeDefs: demoTypeDefs(), resolvers: rootResolvers });
    const introspected = printSchema(buildClientSchema(introspectionFromSchema(schema)));
    expect(`${PUBLIC_SCHEMA_HEADER}${introspected}\n`).toBe(publicSchemaText);
    expect(printPublicSchema(demoTypeDefs())).toBe(introspected);
  });

  it('is what the gateway serves for an SDL that leaves the default and bounds of first unsaid', () => {
    const typeDefs = withDirectiveTypeDefs(/* GraphQL */ `
      type Query { orders(first: Int, after: ID): [Order!]! @list }
      type Order @collection(name: "orders") { id: ID! lines(first: Int): [Line!]! @embedded }
      type Line { sku: String! }
    `);
    const { schema } = buildGatewaySchema({ typeDefs, resolvers: {} });
    const printed = printPublicSchema(typeDefs);
    expect(printed).toBe(printSchema(buildClientSchema(introspectionFromSchema(schema))));
    expect(printed).toContain('  lines(\n    """At most 100: a larger value is an error."""\n    first: Int = 20\n  ): [Line!]!');
  });
});

describe("docjoin's directives in the public schema", () => {
  const sdl = /* GraphQL */ `
    "A directive of the project's own, for its clients."
    directive @trace(label: String) on FIELD | QUERY
    directive @store(mode: Mode!) on FIELD_DEFINITION
    enum Mode { A B }
    type Query {
      item: Item @store(mode: A)
      shape: Shape
    }
    enum Shape { FLAT DEEP }
    type Item {
      name: String @deprecated(reason: "use title") @store(mode: B) @path(path: "title")
    }
  `;

  it("removes docjoin's directives and the enums only they use, keeping GraphQL's, the project's own and their enums (printed as graphql-js prints a schema: a custom directive's uses are not)", () => {
    const printed = printPublicSchema(withDirectiveTypeDefs(sdl));
    expect(printed).toBe(
      [
        `"""A directive of the project's own, for its clients."""`,
        'directive @trace(label: String) on FIELD | QUERY',
        '',
        'directive @store(mode: Mode!) on FIELD_DEFINITION',
        '',
        'enum Mode {',
        '  A',
        '  B',
        '}',
        '',
        'type Query {',
        '  item: Item',
        '  shape: Shape',
        '}',
        '',
        'enum Shape {',
        '  FLAT',
        '  DEEP',
        '}',
        '',
        'type Item {',
        '  name: String @deprecated(reason: "use title")',
        '}',
      ].join('\n'),
    );
  });

});

describe("the project's own scalars", () => {
  const base = 'type Query { things(first: Int): [Thing!]! @list } type Thing @collection(name: "things") { id: ID! at: DateTime email: Email }';
  const servedAndPrinted = (sdl: string, resolvers: IResolvers = {}) => {
    const typeDefs = withDirectiveTypeDefs(sdl);
    const { schema } = buildGatewaySchema({ typeDefs, resolvers, rootResolversToCome: true });
    return { served: printSchema(buildClientSchema(introspectionFromSchema(schema, { specifiedByUrl: true }))), printed: printPublicSchema(typeDefs, { resolvers }) };
  };

  it("a DateTime the SDL declares without a description: docjoin's description, served and printed", () => {
    const { served, printed } = servedAndPrinted(`scalar DateTime scalar Email ${base}`);
    expect(printed).toBe(served);
    expect(printed).toContain('"""An ISO-8601 date-time, e.g. `2026-11-21T09:30:00.000Z`."""\nscalar DateTime');
  });

  it('a DateTime the SDL describes and specifies itself keeps its description and @specifiedBy, served and printed', () => {
    const { served, printed } = servedAndPrinted(`"When it happened" scalar DateTime @specifiedBy(url: "https://scalars.graphql.org/andimarek/date-time") scalar Email ${base}`);
    expect(printed).toBe(served);
    expect(printed).toContain('"""When it happened"""\nscalar DateTime @specifiedBy(url: "https://scalars.graphql.org/andimarek/date-time")');
  });

  it("a hand-written scalar's description and specifiedByURL are printed as served", () => {
    const Email = new GraphQLScalarType({ name: 'Email', description: 'An e-mail address', specifiedByURL: 'https://example.com/email', serialize: (value) => value });
    const { served, printed } = servedAndPrinted(`scalar Email ${base}`, { Email });
    expect(printed).toBe(served);
    expect(printed).toContain('"""An e-mail address"""\nscalar Email @specifiedBy(url: "https://example.com/email")');
  });
});
