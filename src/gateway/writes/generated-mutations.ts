import { getDirective } from '@graphql-tools/utils';
import {
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLNamedInputType,
  type GraphQLSchema,
} from 'graphql';
import { isAtOrUnder, pathsOverlap } from '../documents/read-path';
import type { RelationField, StoredField } from '../startup/storage-map/storage-map-types';
import { derivedValueHolding } from './derived-paths';
import { boundedCopiesOf } from './fan-out-planner';
import { byKeyReferenceFields, nestedReferences, nestedSnapshotLocations, uncheckedParentRelations } from './insert-planner';
import type { WriteModel } from '../startup/write-model/write-model-types';
import type { MutationWritePlans, WritePlan } from './write-plan';

/** The most entries one list of a generated mutation's input may hold (a reference list, an embedded array). */
export const MAX_INPUT_LIST = 100;

/** How one field of an input object becomes stored data. */
export type InputFieldMapping =
  /** A scalar or enum stored at `path`; `typeName` is its GraphQL type (`Float`, `DateTime`, an enum). */
  | { readonly kind: 'value'; readonly name: string; readonly path: string; readonly typeName: string }
  /** Ids of referenced documents: at `path` as they are, or as `{ [key]: id }` copies a snapshot fills. */
  | { readonly kind: 'reference'; readonly name: string; readonly path: string; readonly isList: boolean; readonly snapshotKey: string | undefined }
  /** A nested input stored as an embedded document (or an array of them) at `path`. */
  | { readonly kind: 'embedded'; readonly name: string; readonly path: string; readonly isList: boolean; readonly fields: readonly InputFieldMapping[] };

/** A Mutation field docjoin resolves and plans itself. */
export type GeneratedMutation =
  | { readonly kind: 'create'; readonly coordinate: string; readonly typeName: string; readonly fields: readonly InputFieldMapping[] }
  | { readonly kind: 'update'; readonly coordinate: string; readonly typeName: string; readonly fields: readonly InputFieldMapping[]; readonly nonNull: ReadonlySet<string> }
  | { readonly kind: 'delete'; readonly coordinate: string; readonly typeName: string; readonly returns: 'ID' | 'Boolean' };

type Report = (message: string) => undefined;

/**
 * The Mutation fields with `@create`, `@update` or `@delete`, each checked against the storage of the
 * type it writes (every problem names `Mutation.field` or `Input.field` and the fix), with the write
 * plan derived from it, so the estimate and the write unit agree by construction.
 */
export function buildGeneratedMutations(schema: GraphQLSchema, model: WriteModel): { mutations: Map<string, GeneratedMutation>; plans: MutationWritePlans; problems: string[] } {
  const mutations = new Map<string, GeneratedMutation>();
  const plans: Record<string, WritePlan> = {};
  const problems: string[] = [];
  const mutationType = schema.getMutationType();
  for (const field of Object.values(mutationType?.getFields() ?? {})) {
    const coordinate = `${mutationType!.name}.${field.name}`;
    const report: Report = (message) => {
      problems.push(`${coordinate}: ${message}`);
      return undefined;
    };
    const mutation = buildMutation(schema, model, field, coordinate, report);
    if (!mutation) continue;
    mutations.set(field.name, mutation);
    plans[field.name] = planOf(model, mutation);
  }
  return { mutations, plans, problems };
}

function buildMutation(schema: GraphQLSchema, model: WriteModel, field: GraphQLField<unknown, unknown>, coordinate: string, report: Report): GeneratedMutation | undefined {
  const create = getDirective(schema, field, 'create')?.[0] !== undefined;
  const update = getDirective(schema, field, 'update')?.[0] !== undefined;
  const remove = getDirective(schema, field, 'delete')?.[0] as { type?: unknown } | undefined;
  const declared = [create && '@create', update && '@update', remove && '@delete'].filter(Boolean);
  if (declared.length === 0) return undefined;
  if (declared.length > 1) return report(`declares ${declared.join(' and ')}; keep one`);

  if (remove) {
    const typeName = String(remove.type);
    if (model.storageMap.types.get(typeName)?.collection === undefined) return report(`@delete(type: "${typeName}") names no @collection type`);
    const returns = getNamedType(field.type).name;
    if ((returns !== 'ID' && returns !== 'Boolean') || isListType(getNullableType(field.type))) return report(`@delete returns the deleted id (ID!) or true (Boolean!), not ${String(field.type)}`);
    if (!idArgumentOnly(field, [])) return report('@delete takes exactly one argument, id: ID!');
    return Object.freeze({ kind: 'delete', coordinate, typeName, returns });
  }

  const typeName = getNamedType(field.type).name;
  const directive = create ? '@create' : '@update';
  if (model.storageMap.types.get(typeName)?.collection === undefined) return report(`${directive} returns ${typeName}, which has no @collection; return the type it writes`);
  if (isListType(getNullableType(field.type))) return report(`${directive} returns one ${typeName}, not a list`);
  const input = field.args.find((argument) => argument.name === 'input');
  const inputType = input && getNullableType(input.type);
  if (!input || !isNonNullType(input.type) || !isInputObjectType(inputType)) return report(`${directive} takes its values in an argument input: SomeInput! (an input object)`);
  if (!idArgumentOnly(field, ['input'], create)) return report(create ? '@create takes one argument, input' : '@update takes two arguments, id: ID! and input');
  const fields = mapInput(model, inputType, typeName, create ? 'create' : 'update', report, (fieldName) => declaresDerivedValue(schema, typeName, fieldName));
  if (!fields) return undefined;
  if (create) return Object.freeze({ kind: 'create', coordinate, typeName, fields });
  const storage = model.storageMap.types.get(typeName)!;
  const nonNull = new Set(fields.filter((mapping) => (storage.fields.get(mapping.name) as StoredField).valueType.nonNull).map((mapping) => mapping.name));
  return Object.freeze({ kind: 'update', coordinate, typeName, fields, nonNull });
}

/** `id: ID!` (unless `withoutId`) and the `others`, nothing else. */
function idArgumentOnly(field: GraphQLField<unknown, unknown>, others: readonly string[], withoutId = false): boolean {
  const expected = withoutId ? others : ['id', ...others];
  if (field.args.length !== expected.length || !field.args.every((argument) => expected.includes(argument.name))) return false;
  const id = field.args.find((argument) => argument.name === 'id');
  return withoutId || (id !== undefined && isNonNullType(id.type) && getNamedType(id.type).name === 'ID');
}

/**
 * Each field of `inputType` against the field of the same name of `typeName`. An update sets the type's
 * own scalars and enums only; a create also takes references and embedded documents, and must give
 * every non-null stored field. Derived data (counters, inverse arrays, bounded arrays) is docjoin's.
 */
function mapInput(
  model: WriteModel,
  inputType: GraphQLInputObjectType,
  typeName: string,
  mode: 'create' | 'update',
  report: Report,
  // A field declared @counter or @total is docjoin's even when the declaration is refused (another problem then says why).
  declaredDerived: (fieldName: string) => boolean = () => false,
  // The input types this one is nested in, outermost first.
  within: readonly string[] = [],
): InputFieldMapping[] | undefined {
  const storage = model.storageMap.types.get(typeName)!;
  const mappings: InputFieldMapping[] = [];
  let ok = true;
  const fail = (message: string) => {
    ok = false;
    report(message);
  };
  for (const inputField of Object.values(inputType.getFields())) {
    const where = `${inputType.name}.${inputField.name}`;
    const target = storage.fields.get(inputField.name);
    const inputIsList = isListType(getNullableType(inputField.type));
    const inputNamed = getNamedType(inputField.type);
    if (!target) {
      fail(`${where}: ${typeName} has no field ${inputField.name} (no ${typeName}.${inputField.name}); input fields are named like the fields they set`);
      continue;
    }
    const derived = derivedRule(model, target.coordinate);
    if (derived) {
      fail(`${where}: ${target.coordinate} is ${derived} docjoin keeps true; remove it from the input`);
      continue;
    }
    if (target.kind === 'stored') {
      const reordered = mode === 'update' ? boundedCopiesOf(model, typeName).find((array) => array.childKey === target.path || array.sort.some((key) => key.path === target.path)) : undefined;
      const copy = snapshotHolding(model, typeName, target.path);
      const keyOf = mode === 'update' ? referenceKeyedAt(model, typeName, target.path) : undefined;
      const derivedThere = derivedValueHolding(model, typeName, target.path);
      if (target.isId) fail(`${where}: ids are made by docjoin (and never changed); remove it from the input`);
      else if (keyOf) fail(`${where}: ${target.coordinate} is the key of the reference ${keyOf.coordinate}, which @update would re-point without checking the ${keyOf.targetType} it names exists and the role may read it; remove it from the input (a mutation of your own changes it with unit.changeReference, which checks)`);
      else if (copy) fail(`${where}: ${target.coordinate} is stored inside ${copy.coordinate}'s copy of a ${copy.targetType} (at "${copy.shapes.snapshot!.path}"), which docjoin keeps equal to that ${copy.targetType}; remove it from the input (a create sets ${copy.coordinate} by its id, and changing the ${copy.targetType} updates the copy)`);
      else if (derivedThere) fail(`${where}: ${target.coordinate} is stored at ${target.path}, where the writes keep ${derivedThere.rule}${derivedThere.path === target.path ? '' : ` (at ${derivedThere.path})`}; remove it from the input`);
      else if (reordered) fail(`${where}: ${target.coordinate} decides which ${typeName}s ${reordered.coordinate} keeps and in what order, so changing it would rebuild that array; remove it from the input (a custom mutation can change it, then \`docjoin reconcile --fix\` rebuilds the array)`);
      else if (inputNamed.name !== target.valueType.name || inputIsList !== target.valueType.isList) fail(`${where} must have the type of ${target.coordinate} (${target.valueType.isList ? `[${target.valueType.name}]` : target.valueType.name})`);
      else mappings.push(Object.freeze({ kind: 'value', name: inputField.name, path: target.path, typeName: target.valueType.name }));
      continue;
    }
    if (mode === 'update') {
      fail(`${where}: @update sets ${typeName}'s own scalar and enum fields; change ${target.coordinate} with a mutation of your own`);
      continue;
    }
    const mapping = relationMapping(model, target, inputField.name, inputIsList, inputNamed, where, fail, [...within, inputType.name]);
    if (mapping) mappings.push(mapping);
  }
  // An insert builds one document, so a create may give a value and one inside it (a JSON `meta` and the snapshot at `meta.author`).
  const clash = mode === 'update' ? pathsOverlap : (a: string, b: string) => a === b;
  mappings.forEach((mapping, index) => {
    const earlier = mappings.slice(0, index).find((other) => clash(other.path, mapping.path));
    if (!earlier) return;
    const place = earlier.path === mapping.path ? '' : `${isAtOrUnder(mapping.path, earlier.path) ? 'inside' : 'around'} ${earlier.path}, `;
    fail(`${inputType.name}.${mapping.name} is stored at ${mapping.path}, ${place}where ${inputType.name}.${earlier.name} is stored too, and one write cannot set both; remove one of them from the input`);
  });
  if (mode === 'create') {
    const inputFields = inputType.getFields();
    for (const field of storage.fields.values()) {
      if (field.kind !== 'stored' || field.isId || !field.valueType.nonNull || derivedRule(model, field.coordinate) || declaredDerived(field.fieldName) || derivedValueHolding(model, typeName, field.path)) continue;
      const inputField = inputFields[field.fieldName];
      if (!inputField) fail(`${inputType.name} has no field for ${field.coordinate}, which is non-null; add ${field.fieldName}: ${field.valueType.name}!`);
      else if (!isNonNullType(inputField.type)) fail(`${inputType.name}.${field.fieldName} must be non-null (${String(inputField.type)}!), as ${field.coordinate} is`);
    }
    for (const relation of storage.fields.values()) {
      if (relation.kind !== 'relation' || !relation.nonNull || relation.isList) continue;
      const { embedded, join } = relation.shapes;
      // A reverse join is read from its children, and a list left out reads as empty: only these are the created document's to hold.
      const key = join?.direction === 'byKey' ? join.localField : undefined;
      if (!embedded && key === undefined) continue;
      // A key given inside another input field's value (`buyer.customerId` in an embedded `buyer`) is that field's to give.
      if (key !== undefined && mappings.some((mapping) => mapping.name !== relation.fieldName && key !== mapping.path && isAtOrUnder(key, mapping.path))) continue;
      const givenBy = [relation.fieldName, ...[...storage.fields.values()].flatMap((field) => (field.kind === 'stored' && field.path === key ? [field.fieldName] : []))];
      const inputField = givenBy.map((name) => inputFields[name]).find((given) => given !== undefined);
      const wanted = embedded ? ` (an input object with ${relation.targetType}'s fields, non-null)` : ': ID!';
      if (!inputField) fail(`${inputType.name} has no field for ${relation.coordinate}, which is non-null; add ${relation.fieldName}${wanted}`);
      else if (!isNonNullType(inputField.type)) fail(`${inputType.name}.${inputField.name} must be non-null (${String(inputField.type)}!), as ${relation.coordinate} is`);
    }
  }
  return ok ? mappings : undefined;
}

function relationMapping(
  model: WriteModel,
  relation: RelationField,
  name: string,
  inputIsList: boolean,
  inputNamed: GraphQLNamedInputType,
  where: string,
  fail: (message: string) => void,
  within: readonly string[],
): InputFieldMapping | undefined {
  const { embedded, join, snapshot } = relation.shapes;
  if (inputIsList !== relation.isList) {
    fail(`${where} must ${relation.isList ? '' : 'not '}be a list, as ${relation.coordinate} is${relation.isList ? '' : ' not'}`);
    return undefined;
  }
  if (embedded) {
    if (!isInputObjectType(inputNamed)) {
      fail(`${where}: ${relation.coordinate} is embedded; give it an input object with fields named like ${relation.targetType}'s`);
      return undefined;
    }
    if (within.includes(inputNamed.name)) {
      const loop = [...within.slice(within.indexOf(inputNamed.name)), inputNamed.name].join(' > ');
      fail(`${where}: ${inputNamed.name} holds itself (${loop}), and a generated @create maps inputs of a fixed depth; give the nested level an input type without ${name} (as deep as the documents go), or create them with a mutation of your own`);
      return undefined;
    }
    const fields = mapInput(model, inputNamed, relation.targetType, 'create', (message) => (fail(message), undefined), undefined, within);
    return fields && Object.freeze({ kind: 'embedded', name, path: embedded.path, isList: relation.isList, fields });
  }
  if (join?.direction === 'byKey') {
    if (inputNamed.name !== 'ID') {
      fail(`${where}: ${relation.coordinate} is a reference; give the referenced id${relation.isList ? 's ([ID!])' : ' (ID)'}`);
      return undefined;
    }
    return Object.freeze({ kind: 'reference', name, path: snapshot ? snapshot.path : join.localField, isList: relation.isList, snapshotKey: snapshot?.key });
  }
  fail(`${where}: ${relation.coordinate} is read from the documents that point here (a reverse join); set it from their side`);
  return undefined;
}

/** The snapshot of `typeName` whose copy holds `path`: a value there is the copied document's, not the input's. */
function snapshotHolding(model: WriteModel, typeName: string, path: string): RelationField | undefined {
  for (const relation of model.storageMap.relations.values()) {
    const snapshot = relation.typeName === typeName ? relation.shapes.snapshot : undefined;
    if (snapshot && isAtOrUnder(path, snapshot.path)) return relation;
  }
  return undefined;
}

/** The reference whose key `typeName` stores at `path`: its own by-key join's, or the key a parent's reverse join picks it by. */
function referenceKeyedAt(model: WriteModel, typeName: string, path: string): { readonly coordinate: string; readonly targetType: string } | undefined {
  for (const relation of model.storageMap.relations.values()) {
    const join = relation.shapes.join;
    if (relation.typeName === typeName && join?.direction === 'byKey' && join.localField === path) return relation;
    if (relation.targetType === typeName && join?.direction === 'byReference' && join.foreignField === path) return { coordinate: relation.coordinate, targetType: relation.typeName };
  }
  return undefined;
}

function declaresDerivedValue(schema: GraphQLSchema, typeName: string, fieldName: string): boolean {
  const type = schema.getType(typeName);
  const field = isObjectType(type) ? type.getFields()[fieldName] : undefined;
  return field !== undefined && (getDirective(schema, field, 'counter')?.[0] !== undefined || getDirective(schema, field, 'total')?.[0] !== undefined);
}

/** What keeps `coordinate` true when docjoin derives it, for messages; undefined when it is the source of truth. */
function derivedRule(model: WriteModel, coordinate: string): string | undefined {
  if (model.counters.some((counter) => counter.coordinate === coordinate)) return 'a @counter';
  if (model.totals.some((total) => total.coordinate === coordinate)) return 'a @total';
  if (model.inverses.some((inverse) => inverse.coordinate === coordinate)) return 'the @inverse side of a two-way reference';
  if (model.boundedArrays.some((array) => array.coordinate === coordinate)) return 'a bounded copy of a reverse join';
  return undefined;
}

/** The write plan a generated mutation's unit keeps to. */
function planOf(model: WriteModel, mutation: GeneratedMutation): WritePlan {
  switch (mutation.kind) {
    case 'create': {
      // Only what the input can give is read: the references it names (by the relation, or by the stored
      // key a by-key join reads), the snapshots inside the embedded fields it names.
      const maxKeys: Record<string, number> = {};
      const holds: string[] = [];
      const hold = (coordinate: string, isList: boolean) => {
        holds.push(coordinate);
        if (isList) maxKeys[coordinate] = MAX_INPUT_LIST;
      };
      for (const mapping of mutation.fields) {
        if (mapping.kind === 'reference') {
          hold(`${mutation.typeName}.${mapping.name}`, mapping.isList);
          continue;
        }
        // A key the input gives as a stored field, at the top or inside an embedded document it gives.
        const keyed = (localField: string) => (mapping.kind === 'value' ? localField === mapping.path : localField.startsWith(`${mapping.path}.`));
        for (const field of byKeyReferenceFields(model, mutation.typeName)) if (keyed(field.shapes.join!.localField)) hold(field.coordinate, field.isList || mapping.kind === 'embedded');
        for (const parent of uncheckedParentRelations(model, mutation.typeName)) if (keyed(parent.keyPath)) hold(parent.coordinate, parent.keyIsList || mapping.kind === 'embedded');
      }
      // Read under access rules whatever the input names (a claim may preset the key): bounded as an input list.
      for (const parent of uncheckedParentRelations(model, mutation.typeName)) if (parent.keyIsList) maxKeys[parent.coordinate] ??= MAX_INPUT_LIST;
      const embedded = new Set(mutation.fields.filter((mapping) => mapping.kind === 'embedded').map((mapping) => mapping.path));
      for (const nested of nestedReferences(model, mutation.typeName)) {
        if (!embedded.has(nested.keyPath.split('.')[0]!)) continue;
        holds.push(nested.coordinate);
        maxKeys[nested.coordinate] = MAX_INPUT_LIST ** nested.lists;
      }
      for (const location of nestedSnapshotLocations(model, mutation.typeName)) {
        if (!embedded.has(location.segments[0]!.path)) continue;
        holds.push(location.coordinate);
        maxKeys[location.coordinate] = MAX_INPUT_LIST ** location.segments.filter((segment) => segment.isArray).length;
      }
      return [{ kind: 'insert', typeName: mutation.typeName, maxKeys, holds }];
    }
    case 'update':
      return [{ kind: 'updateSource', typeName: mutation.typeName, by: '_id', fields: mutation.fields.map((mapping) => mapping.name) }];
    case 'delete':
      return [{ kind: 'delete', typeName: mutation.typeName }];
    default: {
      const never: never = mutation;
      throw new Error(`unknown generated mutation ${JSON.stringify(never)}`);
    }
  }
}
