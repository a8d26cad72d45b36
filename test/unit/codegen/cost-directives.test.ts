import { resolve } from 'node:path';
import { buildSchema, getNamedType, getNullableType, isListType, isObjectType, Kind, parse, print, type ConstDirectiveNode, type DocumentNode, type GraphQLSchema } from 'graphql';
import { loadProject } from 'docjoin';
import { COST_DIRECTIVE_DEFINITIONS } from '../../../src/codegen/cost-directives';
import { printPublicSchema } from '../../../src/codegen/public-schema';
import { ProjectConfigError } from '../../../src/project/load-project';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { demoTypeDefs } from '../../support/demo-project';

/**
 * The IBM cost directives docjoin can print into the public schema (codegen.costDirectives), checked
 * against the spec's rules (https://ibm.github.io/graphql-specs/cost-spec.html, "Validation"), on the
 * demo and the shop.
 */

interface Applied {
  readonly coordinate: string;
  readonly directive: ConstDirectiveNode;
}

function applied(document: DocumentNode, name: string): Applied[] {
  return document.definitions.flatMap((definition) =>
    definition.kind === Kind.OBJECT_TYPE_DEFINITION
      ? (definition.fields ?? []).flatMap((field) => (field.directives ?? []).filter((directive) => directive.name.value === name).map((directive) => ({ coordinate: `${definition.name.value}.${field.name.value}`, directive })))
      : [],
  );
}

function argument(directive: ConstDirectiveNode, name: string): unknown {
  const value = directive.arguments?.find((candidate) => candidate.name.value === name)?.value;
  if (!value) return undefined;
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind === Kind.BOOLEAN) return value.value;
  if (value.kind === Kind.LIST) return value.values.map((item) => (item.kind === Kind.STRING ? item.value : undefined));
  return { kind: value.kind };
}

/** Every way a printed schema breaks the spec's rules for @cost and @listSize, one line each. */
function specViolations(printed: string): string[] {
  const document = parse(printed);
  const schema: GraphQLSchema = buildSchema(printed);
  const problems: string[] = [];
  const definitions = document.definitions.flatMap((definition) => (definition.kind === Kind.DIRECTIVE_DEFINITION ? [print(definition)] : []));
  const expected = parse(COST_DIRECTIVE_DEFINITIONS).definitions.map((definition) => print(definition));
  if (JSON.stringify(definitions.filter((text) => /@(cost|listSize)\(/.test(text))) !== JSON.stringify(expected)) problems.push('the directive definitions are not the spec\'s');
  for (const { coordinate, directive } of applied(document, 'cost')) {
    const weight = argument(directive, 'weight');
    if (typeof weight !== 'number' || !Number.isInteger(weight) || weight < 0) problems.push(`${coordinate}: @cost(weight:) must be a non-negative Int`);
  }
  for (const { coordinate, directive } of applied(document, 'listSize')) {
    const [typeName, fieldName] = coordinate.split('.') as [string, string];
    const type = schema.getType(typeName);
    const field = isObjectType(type) ? type.getFields()[fieldName]! : undefined;
    if (!field) {
      problems.push(`${coordinate}: no such field`);
      continue;
    }
    const returned = getNullableType(field.type);
    const sizedFields = argument(directive, 'sizedFields') as string[] | undefined;
    const slicing = argument(directive, 'slicingArguments') as string[] | undefined;
    const assumedSize = argument(directive, 'assumedSize');
    // Valid List Size Target: a list, unless sizedFields names the lists of the returned object.
    if (!isListType(returned) && !(sizedFields && sizedFields.length > 0)) problems.push(`${coordinate}: @listSize on a field that is not a list, without sizedFields`);
    if (assumedSize !== undefined && (typeof assumedSize !== 'number' || assumedSize < 0)) problems.push(`${coordinate}: assumedSize must be a non-negative Int`);
    // Valid Slicing Arguments Target: arguments of the field, of type Int.
    for (const name of slicing ?? []) {
      const arg = field.args.find((candidate) => candidate.name === name);
      if (!arg || getNamedType(arg.type).name !== 'Int' || isListType(getNullableType(arg.type))) problems.push(`${coordinate}: slicing argument ${name} is not an Int argument of the field`);
    }
    // Valid Sized Fields Target: fields of the returned object type, each a list.
    for (const name of sizedFields ?? []) {
      const child = isObjectType(getNamedType(returned)) ? (getNamedType(returned) as { getFields(): Record<string, { type: unknown }> }).getFields()[name] : undefined;
      if (!child || !isListType(getNullableType(child.type as never))) problems.push(`${coordinate}: sized field ${name} is not a list field of ${String(getNamedType(returned))}`);
    }
    const requireOne = argument(directive, 'requireOneSlicingArgument');
    if (requireOne !== undefined && typeof requireOne !== 'boolean') problems.push(`${coordinate}: requireOneSlicingArgument must be a Boolean`);
    // With requireOneSlicingArgument (the default), every slicing argument must be one a request must give: none may have a default.
    if (requireOne !== false && (slicing ?? []).some((name) => field.args.find((candidate) => candidate.name === name)?.defaultValue !== undefined)) {
      problems.push(`${coordinate}: requires one slicing argument, but ${String(slicing)} has a default`);
    }
  }
  return problems;
}

const listSizeOf = (document: DocumentNode, coordinate: string) => applied(document, 'listSize').find((entry) => entry.coordinate === coordinate)?.directive;
const costOf = (document: DocumentNode, coordinate: string) => applied(document, 'cost').find((entry) => entry.coordinate === coordinate)?.directive;

describe('the IBM cost directives in the public schema', () => {
  it('are printed only when asked, and then follow the spec on the demo', () => {
    expect(printPublicSchema(demoTypeDefs())).not.toContain('@listSize');
    const printed = printPublicSchema(demoTypeDefs(), { costDirectives: true });
    expect(specViolations(printed)).toEqual([]);
    const document = parse(printed);
    // A paged root list: sliced by first, 20 when a request leaves it out.
    expect(print(listSizeOf(document, 'Query.posts')!)).toBe('@listSize(assumedSize: 20, slicingArguments: ["first"], requireOneSlicingArgument: false)');
    // An embedded array kept to its newest 3, read with its parent: no read of its own.
    expect(print(costOf(document, 'Post.recentComments')!)).toBe('@cost(weight: 0)');
    expect(print(listSizeOf(document, 'Post.recentComments')!)).toBe('@listSize(assumedSize: 3)');
    // A join costs its objects, as the spec counts them by default.
    expect(costOf(document, 'Post.comments')).toBeUndefined();
    // A connection: sliced by first, its edges and nodes sized by it (and by nothing of their own).
    expect(print(listSizeOf(document, 'Post.commentsConnection')!)).toBe('@listSize(assumedSize: 10, slicingArguments: ["first"], requireOneSlicingArgument: false, sizedFields: ["edges", "nodes"])');
    expect(listSizeOf(document, 'CommentConnection.edges')).toBeUndefined();
  });

  it('follow the spec on the shop', async () => {
    const project = await loadProject({ cwd: process.cwd(), configPath: resolve(__dirname, '../../../examples/shop/docjoin.config.ts') });
    const printed = printPublicSchema(project.typeDefs, { costDirectives: true });
    expect(specViolations(printed)).toEqual([]);
    const document = parse(printed);
    expect(print(listSizeOf(document, 'Query.orders')!)).toBe('@listSize(assumedSize: 20, slicingArguments: ["first"], requireOneSlicingArgument: false)');
    // A snapshot may still join (a field outside its copy): priced as a join.
    expect(costOf(document, 'Order.customer')).toBeUndefined();
    expect(print(costOf(document, 'Customer.addresses')!)).toBe('@cost(weight: 0)');
    // An aggregate is one object (one aggregate); its figures come in its reply, its groups are sliced by first.
    expect(costOf(document, 'Query.ordersAggregate')).toBeUndefined();
    expect(print(costOf(document, 'OrderAggregate.sum')!)).toBe('@cost(weight: 0)');
    expect(print(costOf(document, 'OrderGroup.key')!)).toBe('@cost(weight: 0)');
    expect(costOf(document, 'OrderAggregate.groupBy')).toBeUndefined();
    expect(print(listSizeOf(document, 'OrderAggregate.groupBy')!)).toBe('@listSize(assumedSize: 20, slicingArguments: ["first"], requireOneSlicingArgument: false)');
  });

  it('are refused, naming the fix, when the SDL defines @cost or @listSize itself', () => {
    const own = withDirectiveTypeDefs('directive @cost(weight: String!) on FIELD_DEFINITION\ntype Note @collection(name: "notes") { id: ID! }\ntype Query { notes: [Note!]! @list @cost(weight: "2") }\n');
    expect(printPublicSchema(own)).toContain('directive @cost(weight: String!) on FIELD_DEFINITION');
    expect(() => printPublicSchema(own, { costDirectives: true })).toThrow(
      new ProjectConfigError("codegen.costDirectives prints docjoin's @cost and @listSize, but the SDL defines @cost itself; remove codegen.costDirectives to keep yours, or remove your @cost to take docjoin's"),
    );
  });

  it('a check that catches what breaks the rules', () => {
    const broken = `${COST_DIRECTIVE_DEFINITIONS}\ntype Query { one(first: String): Int @listSize(assumedSize: -1, slicingArguments: ["first", "last"]) @cost(weight: -2) }`;
    expect(specViolations(broken)).toEqual([
      'Query.one: @cost(weight:) must be a non-negative Int',
      'Query.one: @listSize on a field that is not a list, without sizedFields',
      'Query.one: assumedSize must be a non-negative Int',
      'Query.one: slicing argument first is not an Int argument of the field',
      'Query.one: slicing argument last is not an Int argument of the field',
    ]);
  });
});
