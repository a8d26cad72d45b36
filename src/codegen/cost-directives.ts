import {
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  Kind,
  parse,
  print,
  visit,
  type ConstDirectiveNode,
  type ConstValueNode,
  type DocumentNode,
  type GraphQLField,
  type GraphQLSchema,
} from 'graphql';
import { aggregateTypeNames, DEFAULT_ASSUMED_LIST_SIZE, DEFAULT_FIRST, type StorageMap } from '../gateway';
import { ProjectConfigError } from '../project/load-project';

/**
 * The cost directives after the IBM GraphQL cost spec (https://ibm.github.io/graphql-specs/cost-spec.html),
 * with `weight: Int!` as the routers that read them declare it (Apollo's specs.apollo.dev/cost/v0.1,
 * Grafbase, Hive; the IBM draft types it as a String): what they price an operation with before they
 * send it to docjoin.
 */
export const COST_DIRECTIVE_DEFINITIONS = /* GraphQL */ `
directive @cost(weight: Int!) on ARGUMENT_DEFINITION | ENUM | FIELD_DEFINITION | INPUT_FIELD_DEFINITION | OBJECT | SCALAR

directive @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!], requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION
`;

/**
 * `printed` (the public SDL) with the cost directives docjoin's storage map implies:
 * - `@listSize` on every list and connection field: sliced by `first` when it takes one (its default,
 *   or docjoin's 20, when a request leaves it out; `requireOneSlicingArgument: false`, since it may);
 *   else the relation's bound (`@join(limit:)`), else the list size docjoin's own estimate assumes. A connection's size applies to its `edges` and `nodes` (`sizedFields`).
 *   Its own `edges` and `nodes` carry none.
 * - `@cost(weight: 0)` on a relation embedded in its parent: it costs no read of its own, where the
 *   spec's default counts each object. (A snapshot is not: a selection outside its copied fields joins.)
 *   So do an aggregate's figures (`sum`, `avg`, `min`, `max`) and a group's `key`: its reply holds them.
 *   An `@aggregate` field keeps the default weight of an object: one aggregate.
 * Fields are matched in `schema` (the public schema, built from `printed`). An SDL that defines either
 * directive itself is refused: the definitions would clash.
 */
export function withCostDirectives(printed: string, schema: GraphQLSchema, storageMap: StorageMap): string {
  const defined = ['cost', 'listSize'].find((name) => schema.getDirective(name) !== undefined);
  if (defined !== undefined) {
    throw new ProjectConfigError(
      `codegen.costDirectives prints docjoin's @cost and @listSize, but the SDL defines @${defined} itself; remove codegen.costDirectives to keep yours, or remove your @${defined} to take docjoin's`,
    );
  }
  // An aggregate's figures and a group's key are read from the aggregate's reply, not by a read of their own.
  const builtFromReply = new Set([...storageMap.aggregates.values()].flatMap((aggregate) => [aggregateTypeNames(aggregate.targetType).aggregate, aggregateTypeNames(aggregate.targetType).group]));
  const withDirectives = visit(parse(printed), {
    ObjectTypeDefinition(type) {
      const graphqlType = schema.getType(type.name.value);
      // A connection's edges and nodes are sized by the field returning it (`sizedFields`).
      if (!isObjectType(graphqlType) || storageMap.connections.has(type.name.value)) return undefined;
      const fields = type.fields?.map((field) => {
        const definition = graphqlType.getFields()[field.name.value];
        const directives = definition ? costDirectivesOf(definition, `${type.name.value}.${field.name.value}`, storageMap, builtFromReply) : [];
        return directives.length === 0 ? field : { ...field, directives: [...(field.directives ?? []), ...directives] };
      });
      return { ...type, fields };
    },
  }) as DocumentNode;
  return `${COST_DIRECTIVE_DEFINITIONS.trim()}\n\n${print(withDirectives)}`;
}

function costDirectivesOf(field: GraphQLField<unknown, unknown>, coordinate: string, storageMap: StorageMap, builtFromReply: ReadonlySet<string>): ConstDirectiveNode[] {
  const directives: ConstDirectiveNode[] = [];
  const relation = storageMap.relations.get(coordinate);
  const typeName = coordinate.slice(0, coordinate.indexOf('.'));
  const fromReply = builtFromReply.has(typeName) && isObjectType(getNamedType(field.type)) && !isListType(getNullableType(field.type));
  if (relation?.defaultStrategy === 'embedded' || fromReply) directives.push(directive('cost', { weight: int(0) }));
  const listSize = listSizeOf(field, relation?.shapes.join?.limit, storageMap);
  if (listSize) directives.push(directive('listSize', listSize));
  return directives;
}

/** The `@listSize` arguments of a list or connection field; undefined for any other field. */
function listSizeOf(field: GraphQLField<unknown, unknown>, limit: number | undefined, storageMap: StorageMap): Record<string, ConstValueNode> | undefined {
  const returned = getNullableType(field.type);
  const connection = isObjectType(returned) ? storageMap.connections.get(returned.name) : undefined;
  if (!isListType(returned) && !connection) return undefined;
  const sizedFields = connection && isObjectType(returned) ? Object.values(returned.getFields()).filter((child) => isListType(getNullableType(child.type))).map((child) => child.name) : [];
  const first = field.args.find((argument) => argument.name === 'first' && getNamedType(argument.type).name === 'Int');
  const size: Record<string, ConstValueNode> = {};
  if (first) {
    size.assumedSize = int(typeof first.defaultValue === 'number' ? first.defaultValue : DEFAULT_FIRST);
    size.slicingArguments = strings(['first']);
    size.requireOneSlicingArgument = { kind: Kind.BOOLEAN, value: false };
  } else size.assumedSize = int(limit ?? DEFAULT_ASSUMED_LIST_SIZE);
  if (sizedFields.length > 0) size.sizedFields = strings(sizedFields);
  return size;
}

function directive(name: string, values: Record<string, ConstValueNode>): ConstDirectiveNode {
  return {
    kind: Kind.DIRECTIVE,
    name: { kind: Kind.NAME, value: name },
    arguments: Object.entries(values).map(([argument, value]) => ({ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: argument }, value })),
  };
}

function int(value: number): ConstValueNode {
  return { kind: Kind.INT, value: String(value) };
}

function strings(values: readonly string[]): ConstValueNode {
  return { kind: Kind.LIST, values: values.map((value) => ({ kind: Kind.STRING, value })) };
}
