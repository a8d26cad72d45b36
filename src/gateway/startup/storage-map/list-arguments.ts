import { getNamedType, getNullableType, isEnumType, isLeafType, isListType, type GraphQLArgument, type GraphQLSchema } from 'graphql';
import { parseSort } from './parse-sort';
import { readFilter, readSortValue } from './read-directives';
import type { FilterOp, ListOrder, RootCondition, SortKey, TypeStorage } from './storage-map-types';

/**
 * The arguments of a list (a generated `@list` root field, or a relation list) that are not paging:
 * filters on the listed type's fields, and `orderBy`. Problems go to `report`, naming the argument.
 */

type Report = (message: string) => undefined;

/**
 * An argument as a condition on the stored field it names (`@filter(field:)`, else its own name).
 * `refused`: the fields the storage map refused with a problem of their own, whose arguments say nothing more.
 */
export function condition(schema: GraphQLSchema, argument: GraphQLArgument, storage: TypeStorage, report: Report, refused: ReadonlySet<string>): RootCondition | undefined {
  const filter = readFilter(schema, argument);
  const fieldName = filter?.field ?? argument.name;
  const field = storage.fields.get(fieldName);
  if (field === undefined && refused.has(`${storage.typeName}.${fieldName}`)) return undefined;
  const listArgument = isListType(getNullableType(argument.type));
  const op: FilterOp = filter?.op ?? (listArgument ? 'IN' : 'EQ');
  const named = getNamedType(argument.type);
  const join = field?.kind === 'relation' && field.shapes.join?.direction === 'byKey' ? field.shapes.join : undefined;
  if (join) {
    // A reference filters by the key the document keeps (`category: ID` → `categoryId`, `customer.id`).
    if (named.name !== 'ID') return report(`argument "${argument.name}" filters by the reference ${field!.coordinate}; make it ID (or [ID!] with IN)`);
    if (op !== 'EQ' && op !== 'NE' && op !== 'IN') return report(`argument "${argument.name}": a reference compares by EQ, NE or IN, not ${op}`);
    return Object.freeze({ argumentName: argument.name, path: join.localField, op, objectId: true });
  }
  if (!filter && argument.name === 'id' && field === undefined) {
    const fix = storage.fields.has('_id') ? 'rename its field _id to id' : `add id: ID! to type ${storage.typeName}`;
    return report(`argument "id" names ${storage.typeName}.id, which ${storage.typeName} does not declare; ${fix} (an id field reads the documents' _id)`);
  }
  if (field?.kind !== 'stored') {
    return report(
      filter
        ? `argument "${argument.name}": @filter(field: "${fieldName}") is neither a stored field nor a reference of ${storage.typeName}`
        : `argument "${argument.name}" is neither a field of ${storage.typeName} nor first, after or orderBy; rename it or add @filter(field: "...", op: ...)`,
    );
  }
  if (!isLeafType(named)) return report(`argument "${argument.name}" must be a scalar or an enum to filter ${storage.typeName}.${fieldName}`);
  if (op === 'IN' && !listArgument) return report(`argument "${argument.name}": @filter(op: IN) takes a list; make it [${named.name}!]`);
  if (op !== 'IN' && listArgument) return report(`argument "${argument.name}" is a list, which only @filter(op: IN) compares`);
  if (op === 'PREFIX' && named.name !== 'String') return report(`argument "${argument.name}": @filter(op: PREFIX) compares strings; make it String`);
  const storedType = field.isId ? 'ID' : field.valueType.name;
  const argumentFamily = valueFamily(named.name, isEnumType(named));
  const storedFamily = valueFamily(storedType, field.valueType.isEnum);
  if (argumentFamily !== undefined && storedFamily !== undefined && argumentFamily !== storedFamily) {
    return report(`argument "${argument.name}" is ${named.name}, but it compares ${storage.typeName}.${fieldName}, ${storedType}, so no stored value would match it; make it ${listArgument ? `[${storedType}!]` : storedType}`);
  }
  return Object.freeze({ argumentName: argument.name, path: field.path, op, objectId: field.isId || named.name === 'ID' });
}

/** `orderBy: SomeEnum`: every value of the enum names its order with `@sort(by:)`. */
export function orderByArgument(schema: GraphQLSchema, argument: GraphQLArgument, report: Report): ListOrder | undefined {
  const type = getNamedType(argument.type);
  if (!isEnumType(type)) return undefined;
  const sorts = new Map<string, readonly SortKey[]>();
  for (const value of type.getValues()) {
    const by = readSortValue(schema, value);
    if (!by) return report(`argument "orderBy": enum value ${type.name}.${value.name} has no @sort(by: "..."); add one, e.g. @sort(by: "-createdAt")`);
    const parsed = parseSort(by.by);
    if (typeof parsed === 'string') return report(`argument "orderBy": ${type.name}.${value.name} @sort ${parsed}`);
    // GraphQL hands resolvers the enum value's internal value, which is its name unless a resolver maps it.
    sorts.set(String(value.value), Object.freeze(parsed));
  }
  return { argumentName: argument.name, sorts };
}

/**
 * The values a GraphQL type stands for, as MongoDB compares them: numbers of every width together (an
 * Int argument finds a Float), a string and an enum's name together, an id (an ObjectId) apart from a
 * string. undefined for a scalar of the project's own (an Email held as a string), whose values docjoin
 * cannot tell.
 */
function valueFamily(typeName: string, isEnum: boolean): string | undefined {
  if (isEnum || typeName === 'String') return 'string';
  if (['Int', 'Float', 'Long', 'Decimal'].includes(typeName)) return 'number';
  return ['ID', 'Boolean', 'DateTime'].includes(typeName) ? typeName : undefined;
}
