import { ObjectId } from 'bson';
import { getNamedType, isEnumType, type GraphQLField } from 'graphql';
import type { WhereEntry } from '../storage-map/read-directives';
import type { TypeStorage } from '../storage-map/storage-map-types';
import { describeValueType, isValueOfType, type ConstantValue, type RowCondition, type ScalarValueType } from './access-rule-types';

/** A `where` entry as the stored path it compares: a stored scalar, an id, or a single reference's key; or why it cannot be one. */
export function rowCondition(storage: TypeStorage, graphqlField: GraphQLField<unknown, unknown> | undefined, entry: WhereEntry): RowCondition | string {
  const { field: fieldName, claim } = entry;
  const hasClaim = claim !== undefined && claim !== null;
  const hasConstant = entry.equals !== undefined && entry.equals !== null;
  if (hasClaim === hasConstant) {
    return hasClaim
      ? `where: { field: "${fieldName}" } gives both claim and equals; a condition compares the field with one of them`
      : `where: { field: "${fieldName}" } needs the claim it equals, e.g. claim: "sub", or a constant, e.g. equals: true`;
  }
  if (hasClaim && claim.trim() === '') return `where: { field: "${fieldName}" } needs the claim it equals, e.g. claim: "sub"`;
  const compared = comparedPath(storage, fieldName);
  if (typeof compared === 'string') return compared;
  if (hasClaim) {
    const valueType = compared.objectId ? undefined : valueTypeOf(graphqlField);
    // An enum's resolvers may store it by other values (`Status: { DRAFT: 'd' }`), which the claim then gives.
    const checked = typeof valueType === 'object' ? undefined : valueType;
    return { fieldName, ...compared, equals: { claim }, ...(checked !== undefined && { valueType: checked }) };
  }
  const constant = constantFor(storage, graphqlField, compared.objectId, fieldName, entry.equals);
  return typeof constant === 'string' ? constant : { fieldName, ...compared, equals: constant };
}

/** The values a field of a built-in scalar or an enum takes; undefined for any other type. */
function valueTypeOf(graphqlField: GraphQLField<unknown, unknown> | undefined): ScalarValueType | undefined {
  const named = graphqlField === undefined ? undefined : getNamedType(graphqlField.type);
  if (named !== undefined && isEnumType(named)) return { enumValues: named.getValues().map((enumValue) => enumValue.name) };
  return ({ Boolean: 'boolean', String: 'string', Int: 'int32', Long: 'integer', Float: 'number' } as const)[named?.name ?? ''];
}

function comparedPath(storage: TypeStorage, fieldName: string): { path: string; objectId: boolean } | string {
  const field = storage.fields.get(fieldName);
  if (field?.kind === 'stored') {
    if (field.valueType.isList) return `where: ${storage.typeName}.${fieldName} is a list; a row condition compares one value`;
    return { path: field.path, objectId: field.isId || field.valueType.name === 'ID' };
  }
  const join = field?.kind === 'relation' ? field.shapes.join : undefined;
  if (field?.kind === 'relation' && join?.direction === 'byKey' && !field.isList) return { path: join.localField, objectId: true };
  const known = [...storage.fields.values()].filter((candidate) => candidate.kind === 'stored' || (candidate.shapes.join?.direction === 'byKey' && !candidate.isList));
  return `where: ${storage.typeName}.${fieldName} is not a stored field or a single reference; name one of ${known.map((candidate) => candidate.fieldName).join(', ')}`;
}

/**
 * The constant as the documents store it, checked against the field's type: a value of another type
 * would match no row, silently.
 */
function constantFor(storage: TypeStorage, graphqlField: GraphQLField<unknown, unknown> | undefined, objectId: boolean, fieldName: string, value: unknown): ConstantValue | string {
  const coordinate = `${storage.typeName}.${fieldName}`;
  const given = JSON.stringify(value);
  if (objectId) {
    return typeof value === 'string' && /^[0-9a-fA-F]{24}$/.test(value)
      ? { constant: new ObjectId(value.toLowerCase()) }
      : `where: ${coordinate} holds an ObjectId, and equals: ${given} is none; give its 24 hex digits, e.g. equals: "67c000000000000000000001"`;
  }
  const named = graphqlField === undefined ? undefined : getNamedType(graphqlField.type);
  const valueType = valueTypeOf(graphqlField);
  if (valueType === undefined) return `where: ${coordinate} is a ${named?.name ?? 'field'}; equals compares a String, Boolean, Int, Long, Float, enum or id field; compare it with a claim instead`;
  if (isValueOfType(value, valueType)) return { constant: value as string | number | boolean };
  return typeof valueType === 'object' ? `where: ${coordinate} is a ${named!.name}, and equals: ${given} is none of its values ${valueType.enumValues.join(', ')}` : `where: ${coordinate} is a ${named!.name}, and equals: ${given} is no ${describeValueType(valueType).replace(/^an? /, '')}`;
}
