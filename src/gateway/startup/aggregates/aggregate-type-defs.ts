import { Kind, type ConstArgumentNode, type ConstValueNode, type DocumentNode, type FieldDefinitionNode, type TypeNode } from 'graphql';
import { aggregateTypeNames, DATE_SCALARS, DEFAULT_GROUPS, GROUP_ORDER_ENUM, GROUP_ORDERS, groupFieldValue, MAX_GROUPS, NUMERIC_SCALARS } from './aggregate-names';

/** What the `@aggregate` fields over one target type ask for, in the order they first name it. */
interface TargetFigures {
  /** Numeric (`Int`, `Float`) and date (`DateTime`) fields, by name, with their scalar. */
  readonly figures: Map<string, string>;
  /** Groupable fields by name, with the scalar or enum a group's key holds (`ID` for a reference). */
  readonly keys: Map<string, string>;
}

/**
 * The SDL of the types the `@aggregate` fields of `documents` return: per target type `T`, `TAggregate`
 * and the types below it, holding every field that some `@aggregate` over a list of `T` names (the
 * union: any list of `T` can add up any stored field of it). A name the fields or lists don't resolve
 * to a known field is left out here; the startup checks (build-aggregate-fields.ts) report it. Undefined
 * when no field declares `@aggregate`, or when the documents already define the types (an SDL written
 * with a copy of them keeps its own; the startup checks refuse one that is not docjoin's).
 */
export function aggregateTypeDefs(documents: readonly DocumentNode[]): string | undefined {
  const fieldsByType = objectFields(documents);
  const targets = new Map<string, TargetFigures>();
  const declaredReturns = new Set<string>();
  for (const fields of fieldsByType.values()) {
    for (const field of fields) {
      const directive = field.directives?.find((node) => node.name.value === 'aggregate');
      if (!directive) continue;
      declaredReturns.add(namedType(field.type));
      const of = stringArgument(directive.arguments, 'of');
      const list = fields.find((candidate) => candidate.name.value === of);
      const target = list && listTarget(namedType(list.type), fieldsByType);
      if (!target) continue;
      const entry = targets.get(target) ?? { figures: new Map<string, string>(), keys: new Map<string, string>() };
      targets.set(target, entry);
      const targetFields = fieldsByType.get(target) ?? [];
      for (const name of stringListArgument(directive.arguments, 'fields')) {
        const scalar = targetFields.find((candidate) => candidate.name.value === name && !isList(candidate.type));
        const type = scalar && namedType(scalar.type);
        if (type && (NUMERIC_SCALARS.has(type) || DATE_SCALARS.has(type))) entry.figures.set(name, type);
      }
      for (const name of stringListArgument(directive.arguments, 'groupBy')) {
        const keyField = targetFields.find((candidate) => candidate.name.value === name && !isList(candidate.type));
        if (keyField) entry.keys.set(name, fieldsByType.has(namedType(keyField.type)) ? 'ID' : namedType(keyField.type));
      }
    }
  }
  if (declaredReturns.size === 0) return undefined;
  const defined = new Set(documents.flatMap((document) => document.definitions.flatMap((definition) => ('name' in definition && definition.name ? [definition.name.value] : []))));
  const generated = [...targets].filter(([target]) => !defined.has(aggregateTypeNames(target).aggregate));
  const sdl = generated.map(([target, entry]) => targetTypeDefs(target, entry));
  if (sdl.length > 0 && !defined.has(GROUP_ORDER_ENUM)) sdl.unshift(groupOrderTypeDefs());
  // A field whose list or type is wrong still gets a type, so the schema builds and the startup checks
  // report the mistake in their words rather than graphql's "Unknown type".
  const made = new Set(generated.map(([target]) => aggregateTypeNames(target).aggregate));
  for (const name of declaredReturns) if (!defined.has(name) && !made.has(name)) sdl.push(`type ${name} {\n  count: Int!\n}`);
  return sdl.length === 0 ? undefined : sdl.join('\n');
}

function targetTypeDefs(target: string, { figures, keys }: TargetFigures): string {
  const names = aggregateTypeNames(target);
  const numeric = [...figures].filter(([, type]) => NUMERIC_SCALARS.has(type));
  const ordered = [...figures];
  const figureFields: Array<readonly [description: string, field: string]> = [
    [`How many ${target} documents the set holds.`, 'count: Int!'],
    ...(numeric.length > 0 ? ([['Totals (0 over an empty set).', `sum: ${names.sums}!`], ['Means (null where no value was summed).', `avg: ${names.averages}!`]] as const) : []),
    ...(ordered.length > 0 ? ([['Smallest values (null over an empty set).', `min: ${names.minima}!`], ['Largest values (null over an empty set).', `max: ${names.maxima}!`]] as const) : []),
  ];
  const described = figureFields.map(([description, field]) => `  "${description}"\n  ${field}`);
  const parts = [
    `"Figures over a set of ${target} (docjoin @aggregate)."\ntype ${names.aggregate} {\n${described.join('\n')}${
      keys.size > 0
        ? `\n  """\n  The same figures per group of equal keys. \`by\`: the fields that make the key; \`first\`: the most\n  groups returned (at most ${MAX_GROUPS}); \`order\`: by the keys, or by how many each group holds (ties by the keys).\n  """\n  groupBy(by: [${names.groupField}!]!, first: Int = ${DEFAULT_GROUPS}, order: ${GROUP_ORDER_ENUM} = KEYS): [${names.group}!]!`
        : ''
    }\n}`,
  ];
  if (numeric.length > 0) {
    parts.push(objectType(names.sums, `Totals over a set of ${target}.`, numeric.map(([name]) => `${name}: Float!`)));
    parts.push(objectType(names.averages, `Means over a set of ${target}.`, numeric.map(([name]) => `${name}: Float`)));
  }
  if (ordered.length > 0) {
    parts.push(objectType(names.minima, `Smallest values over a set of ${target}.`, ordered.map(([name, type]) => `${name}: ${type}`)));
    parts.push(objectType(names.maxima, `Largest values over a set of ${target}.`, ordered.map(([name, type]) => `${name}: ${type}`)));
  }
  if (keys.size > 0) {
    parts.push(`"The fields ${names.aggregate}.groupBy can group ${target} by."\nenum ${names.groupField} {\n${[...keys.keys()].map((name) => `  ${groupFieldValue(name)}`).join('\n')}\n}`);
    parts.push(objectType(names.groupKey, `A group's key: the grouped fields' values (null for a field not grouped by, or missing).`, [...keys].map(([name, type]) => `${name}: ${type}`)));
    parts.push(objectType(names.group, `One group of ${target}: its key and its figures.`, [`key: ${names.groupKey}!`, ...figureFields.map(([, field]) => field)]));
  }
  return parts.join('\n');
}

function objectType(name: string, description: string, fields: readonly string[]): string {
  return `"${description}"\ntype ${name} {\n${fields.map((field) => `  ${field}`).join('\n')}\n}`;
}

function groupOrderTypeDefs(): string {
  return `"How an aggregate's groups are ordered; ties, and KEYS, go by the keys ascending in \`by\` order."\nenum ${GROUP_ORDER_ENUM} {\n${GROUP_ORDERS.map((order) => `  ${order}`).join('\n')}\n}`;
}

/** Every object type's fields, its definition and extensions together. */
function objectFields(documents: readonly DocumentNode[]): Map<string, FieldDefinitionNode[]> {
  const fields = new Map<string, FieldDefinitionNode[]>();
  for (const document of documents) {
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
      const list = fields.get(definition.name.value) ?? [];
      list.push(...(definition.fields ?? []));
      fields.set(definition.name.value, list);
    }
  }
  return fields;
}

/** The type a list field lists: its item type, or a connection's node type (`edges { node }`). */
function listTarget(returned: string, fieldsByType: ReadonlyMap<string, readonly FieldDefinitionNode[]>): string | undefined {
  const fields = fieldsByType.get(returned);
  if (!fields) return undefined;
  const edges = fields.find((field) => field.name.value === 'edges');
  if (!edges) return returned;
  const node = fieldsByType.get(namedType(edges.type))?.find((field) => field.name.value === 'node');
  return node ? namedType(node.type) : returned;
}

function namedType(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedType(type.type);
}

function isList(type: TypeNode): boolean {
  return type.kind === Kind.LIST_TYPE || (type.kind === Kind.NON_NULL_TYPE && isList(type.type));
}

type Arguments = readonly ConstArgumentNode[] | undefined;

function argument(args: Arguments, name: string): ConstValueNode | undefined {
  return args?.find((node) => node.name.value === name)?.value;
}

function stringArgument(args: Arguments, name: string): string | undefined {
  const value = argument(args, name);
  return value?.kind === Kind.STRING ? value.value : undefined;
}

function stringListArgument(args: Arguments, name: string): string[] {
  const value = argument(args, name);
  if (value?.kind === Kind.STRING) return [value.value];
  return value?.kind === Kind.LIST ? value.values.flatMap((item) => (item.kind === Kind.STRING ? [item.value] : [])) : [];
}
