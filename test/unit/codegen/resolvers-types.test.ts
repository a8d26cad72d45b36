import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSchema, isObjectType, parse } from 'graphql';
import { aggregateTypeDefs } from '../../../src/gateway/startup/aggregates/aggregate-type-defs';
import { DEMO_DIR } from '../../support/demo-project';

const schema = buildSchema(readFileSync(resolve(DEMO_DIR, 'schema.public.graphql'), 'utf8'));
const generated = readFileSync(resolve(DEMO_DIR, 'generated/resolvers-types.ts'), 'utf8');

/** `Type: ParentType;` entries of the generated ResolversParentTypes map. */
function parentTypes(): Map<string, string> {
  const block = /export type ResolversParentTypes = \{\n([\s\S]*?)\n\};/.exec(generated)?.[1];
  if (block === undefined) throw new Error('no ResolversParentTypes in src/generated/resolvers-types.ts');
  return new Map(block.split('\n').map((line) => /^ {2}(\w+): (.+);$/.exec(line)!.slice(1, 3) as [string, string]));
}

describe('generated resolver types', () => {
  // A connection's types are docjoin's values, not stored documents: only their nodes are. So are the
  // figures of the @aggregate fields, whose types docjoin generates.
  const connectionTypes = new Set(['CommentConnection', 'CommentEdge', 'PageInfo']);
  const domain = parse(readFileSync(resolve(DEMO_DIR, 'schema/domain.graphql'), 'utf8'));
  const aggregateTypes = new Set(parse(aggregateTypeDefs([domain])!).definitions.flatMap((definition) => ('name' in definition && definition.name ? [definition.name.value] : [])));

  it('give every object type but the root and connection types its MongoDB document type as parent (a mapper in codegen.yml)', () => {
    const rootTypes = new Set([schema.getQueryType()?.name, schema.getMutationType()?.name]);
    const objectTypes = Object.values(schema.getTypeMap()).filter(
      (type) => isObjectType(type) && !type.name.startsWith('__') && !rootTypes.has(type.name) && !connectionTypes.has(type.name) && !aggregateTypes.has(type.name),
    );
    const parents = parentTypes();
    // 17 in the demo domain today; any type added later must get a mapper too.
    expect(objectTypes.length).toBeGreaterThanOrEqual(17);
    for (const type of objectTypes) expect([type.name, parents.get(type.name)]).toEqual([type.name, `${type.name}Document`]);
  });

  it("give a connection's edges and nodes the node's document type", () => {
    const parents = parentTypes();
    expect(parents.get('CommentEdge')).toBe("Omit<CommentEdge, 'node'> & { node: ResolversParentTypes['Comment'] }");
    expect(parents.get('CommentConnection')).toContain("nodes: Array<ResolversParentTypes['Comment']>");
    expect(parents.get('PageInfo')).toBe('PageInfo');
  });

  it('import the documents from src/documents and the one request context, and read DateTime as a Date', () => {
    expect(generated).toMatch(/^import type \{ [\w, ]+ \} from '\.\.\/documents\/index';$/m);
    // The context createRequestContext builds, `writes` included, so mutations need no cast.
    expect(generated).toContain("import type { GatewayContext } from 'docjoin';");
    expect(generated).toContain('export type MutationResolvers<ContextType = GatewayContext,');
    expect(generated).toContain('DateTime: { input: Date; output: Date; }');
  });
});

describe("the shop's generated resolver types", () => {
  const shopTypes = readFileSync(resolve(__dirname, '../../../examples/shop/generated/resolvers-types.ts'), 'utf8');
  const resolversTypes = new Map(
    (/export type ResolversTypes = \{\n([\s\S]*?)\n\};/.exec(shopTypes)?.[1] ?? '').split('\n').map((line) => /^ {2}(\w+): (.+);$/.exec(line)!.slice(1, 3) as [string, string]),
  );

  it('map the stored types to records, and leave scalars, enums and the computed aggregates their own types', () => {
    expect(['Customer', 'Product', 'Order', 'OrderLine', 'Review'].map((name) => resolversTypes.get(name))).toEqual(Array(5).fill('ResolverTypeWrapper<Record<string, unknown>>'));
    expect(['String', 'Boolean', 'DateTime', 'Tier', 'OrderAggregate'].map((name) => resolversTypes.get(name))).toEqual([
      "ResolverTypeWrapper<Scalars['String']['output']>",
      "ResolverTypeWrapper<Scalars['Boolean']['output']>",
      "ResolverTypeWrapper<Scalars['DateTime']['output']>",
      'Tier',
      'ResolverTypeWrapper<OrderAggregate>',
    ]);
  });
});
