import type { GraphQLFieldResolver } from 'graphql';
import { Double, ObjectId } from 'bson';
import type { GatewayContext } from '../context/request-context';
import { objectIdArgument } from '../../documents/object-id-argument';
import { isAtOrUnder, writePath } from '../../documents/read-path';
import { refuseUnstorableValue } from '../../documents/storable-value';
import { InvariantError } from '../../errors/internal-errors';
import { badUserInput } from '../../errors/public-error-code';
import type { StoredDocument } from '../../documents/stored-document';
import { MAX_INPUT_LIST, type GeneratedMutation, type InputFieldMapping } from '../../writes/generated-mutations';
import { duplicateKeyPaths, isDuplicateKeyError, notFound } from '../../writes/write-errors';

type MutationResolver = GraphQLFieldResolver<unknown, GatewayContext, Readonly<Record<string, unknown>>>;

/**
 * Resolvers of the generated mutations, by Mutation field name. Each validates its input, runs ONE
 * write unit (the document and every copy the directives declare, in one transaction where the server
 * supports it), then reads the result back through `context.documents` so any read strategy serves it.
 */
export function buildMutationResolvers(mutations: ReadonlyMap<string, GeneratedMutation>): Record<string, MutationResolver> {
  return Object.fromEntries([...mutations].map(([fieldName, mutation]) => [fieldName, resolverFor(mutation)]));
}

function resolverFor(mutation: GeneratedMutation): MutationResolver {
  switch (mutation.kind) {
    case 'create':
      return async (_parent, args, context, info) => {
        // Made once, outside the unit: a transaction retry inserts the same document.
        const document = { _id: new ObjectId(), ...toDocument(mutation.fields, args.input as Readonly<Record<string, unknown>>, 'input') };
        for (const [name, value] of Object.entries(document)) refuseUnstorableValue(value, 'input', name, 1);
        const inserted = await unique(mutation, () => context.writes.run(info, (unit) => unit.insert(mutation.typeName, document, [], { generated: true })));
        return readBack(context, info, mutation.typeName, inserted._id as ObjectId);
      };
    case 'update':
      return async (_parent, args, context, info) => {
        const id = objectIdArgument(args.id, 'id');
        const changes = toChanges(mutation.fields, mutation.nonNull, args.input as Readonly<Record<string, unknown>>);
        await unique(mutation, () => context.writes.run(info, (unit) => unit.updateSource(mutation.typeName, { _id: id }, changes)));
        return readBack(context, info, mutation.typeName, id);
      };
    case 'delete':
      return async (_parent, args, context, info) => {
        const id = objectIdArgument(args.id, 'id');
        await context.writes.run(info, (unit) => unit.delete(mutation.typeName, id));
        return mutation.returns === 'ID' ? id.toHexString() : true;
      };
    default: {
      const never: never = mutation;
      throw new InvariantError(`unknown generated mutation ${JSON.stringify(never)}`);
    }
  }
}

/** An input object as the document to insert: values at their paths, references as ids (or copies to fill), embedded inputs recursively. */
function toDocument(fields: readonly InputFieldMapping[], input: Readonly<Record<string, unknown>>, at: string): StoredDocument {
  const document: StoredDocument = {};
  for (const mapping of fields) {
    const value = input[mapping.name];
    if (value === undefined) continue;
    const where = `${at}.${mapping.name}`;
    writePath(document, mapping.path, value === null ? null : stored(mapping, value, where));
  }
  return document;
}

function stored(mapping: InputFieldMapping, value: unknown, where: string): unknown {
  switch (mapping.kind) {
    case 'value':
      return asStoredType(mapping.typeName, value, where);
    case 'reference': {
      const reference = (id: unknown) => (mapping.snapshotKey === undefined ? objectIdArgument(id, where) : { [mapping.snapshotKey]: objectIdArgument(id, where) });
      return mapping.isList ? bounded(value, where).map(reference) : reference(value);
    }
    case 'embedded': {
      const entry = (item: unknown, index?: number) => {
        const at = index === undefined ? where : `${where}[${index}]`;
        // The schema may let a list's item be null (`[StepInput]`), but an embedded list holds documents.
        if (item === null) throw badUserInput(`${at} must be an object, not null: ${mapping.name} holds embedded documents`, { argumentName: at });
        return toDocument(mapping.fields, item as Readonly<Record<string, unknown>>, at);
      };
      return mapping.isList ? bounded(value, where).map((item, index) => entry(item, index)) : entry(value);
    }
    default: {
      const never: never = mapping;
      throw new InvariantError(`unknown input mapping ${JSON.stringify(never)}`);
    }
  }
}

/** The changes an update input asks for: given fields only; null only where the schema allows it. */
function toChanges(fields: readonly InputFieldMapping[], nonNull: ReadonlySet<string>, input: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const mapping of fields) {
    const value = input[mapping.name];
    if (value === undefined) continue;
    if (value === null && nonNull.has(mapping.name)) throw badUserInput(`input.${mapping.name} must not be null`, { argumentName: `input.${mapping.name}` });
    changes[mapping.name] = value === null ? null : stored(mapping, value, `input.${mapping.name}`);
    refuseUnstorableValue(changes[mapping.name], `input.${mapping.name}`, mapping.path, mapping.path.split('.').length);
  }
  if (Object.keys(changes).length === 0) throw badUserInput('input must set at least one field', { argumentName: 'input' });
  return changes;
}

/**
 * A scalar or enum as its declared BSON type. GraphQL has coerced it already (an Int is an integer, a
 * DateTime a Date); but the driver stores a whole JS number as an int32, so a Float is made a double,
 * and an ID is a string, made the ObjectId that filters and access rules compare an ID field with.
 */
function asStoredType(typeName: string, value: unknown, where: string): unknown {
  const convert = STORED_AS[typeName];
  if (!convert) return value;
  return Array.isArray(value) ? value.map((item: unknown, index) => (item === null ? null : convert(item, `${where}[${index}]`))) : convert(value, where);
}

const STORED_AS: Readonly<Record<string, (value: unknown, where: string) => unknown>> = {
  // graphql-js reads a literal past a double's range (1e400) as Infinity, which no Float field could be read back as.
  Float: (value, where) => {
    if (!Number.isFinite(value)) throw badUserInput(`${where} must be a finite number, got ${String(value)}`, { argumentName: where });
    return new Double(value as number);
  },
  ID: (value, where) => objectIdArgument(value, where),
};

function bounded(value: unknown, where: string): unknown[] {
  const list = value as unknown[];
  if (list.length > MAX_INPUT_LIST) throw badUserInput(`${where} may hold at most ${MAX_INPUT_LIST} entries, got ${list.length}`, { argumentName: where });
  return list;
}

/** A unique-index violation is the caller's input, not a server failure. */
async function unique<T>(mutation: GeneratedMutation, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isDuplicateKeyError(error)) throw badUserInput(duplicateMessage(mutation, duplicateKeyPaths(error)), { argumentName: 'input' });
    throw error;
  }
}

/**
 * Names the input fields the broken unique index covers: a key inside a reference's copy by the
 * reference. A key no input field stores (one a rule presets from a claim) is not named: the client
 * did not give it, and may not be allowed to read it. Without a name left, the message names none.
 */
function duplicateMessage(mutation: GeneratedMutation, paths: readonly string[]): string {
  const fields = 'fields' in mutation ? mutation.fields : [];
  const names = paths.flatMap((path) => fields.find((mapping) => isAtOrUnder(path, mapping.path))?.name ?? []);
  if (names.length === 0) return `another ${mutation.typeName} already has one of these unique values`;
  return `another ${mutation.typeName} already has this ${[...new Set(names)].join(' and ')} (a unique index allows one)`;
}

async function readBack(context: GatewayContext, info: Parameters<MutationResolver>[3], typeName: string, id: ObjectId): Promise<StoredDocument> {
  const document = await context.documents.findOne(info, typeName, { _id: id });
  // Only a concurrent delete between the commit and this read gets here.
  if (!document) throw notFound(`${typeName} was removed before it could be read back`, { typeName });
  return document;
}
