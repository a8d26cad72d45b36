import { isEnumType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import { suggestionList } from 'graphql/jsutils/suggestionList';

/**
 * What the hand-written resolver maps name that the schema lacks: a type, a field, an enum value (a
 * field renamed in the SDL and not in its resolver is the usual one), or a map that is no object. Each
 * names the resolver, the nearest name the schema has, and the fix; graphql-tools would throw on the
 * first alone, with its stack.
 */
export function resolverMapProblems(schema: GraphQLSchema, handWritten: readonly unknown[]): string[] {
  return handWritten.flatMap((resolvers) => {
    if (!isPlainMap(resolvers)) return [`resolvers must be an object of resolver maps by type ({ Query: { field: resolver } }), got ${shown(resolvers)}`];
    return Object.entries(resolvers).flatMap(([typeName, entries]) => typeProblems(schema, typeName, entries));
  });
}

function typeProblems(schema: GraphQLSchema, typeName: string, entries: unknown): string[] {
  const type = schema.getType(typeName);
  if (!type) return [`resolvers.${typeName}: the schema has no type ${typeName}${nearest(typeName, Object.keys(schema.getTypeMap()).filter((name) => !name.startsWith('__')))}; rename it to a type of the SDL, or remove it`];
  const names = isObjectType(type) || isInterfaceType(type) ? Object.keys(type.getFields()) : isEnumType(type) ? type.getValues().map((value) => value.name) : undefined;
  if (names === undefined) return [];
  if (!isPlainMap(entries)) return [`resolvers.${typeName} must be an object of ${isEnumType(type) ? 'its values' : 'field resolvers'}, got ${shown(entries)}`];
  const what = isEnumType(type) ? 'value' : 'field';
  return Object.keys(entries)
    .filter((name) => !name.startsWith('__') && !names.includes(name))
    .map((name) => `resolvers.${typeName}.${name}: ${typeName} has no ${what} ${name}${nearest(name, names)}; rename the resolver to a ${what} of the SDL, or remove it`);
}

/** A write plan given for a field the schema's Mutation type lacks (a misspelt name): nothing would read it, so it is refused as a misspelt resolver is. */
export function writePlanKeyProblems(schema: GraphQLSchema, writePlans: Readonly<Record<string, unknown>>): string[] {
  const mutationType = schema.getMutationType();
  const names = Object.keys(mutationType?.getFields() ?? {});
  const typeName = mutationType?.name ?? 'Mutation';
  return Object.keys(writePlans)
    .filter((name) => !names.includes(name))
    .map((name) => `writePlans.${name}: ${mutationType ? `${typeName} has no field ${name}${nearest(name, names)}` : 'the schema has no Mutation type'}; rename the plan to a mutation of the SDL, or remove it`);
}

function isPlainMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nearest(name: string, names: readonly string[]): string {
  const [closest] = suggestionList(name, [...names]);
  return closest === undefined ? '' : ` (did you mean ${closest}?)`;
}

function shown(value: unknown): string {
  return Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value === 'string' ? JSON.stringify(value) : typeof value === 'object' ? 'an object' : String(value);
}
