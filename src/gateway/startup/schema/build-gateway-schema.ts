import { makeExecutableSchema } from '@graphql-tools/schema';
import { getDirective, type IResolvers } from '@graphql-tools/utils';
import { GraphQLScalarType, GraphQLSchema, isEnumType, isObjectType, isScalarType, Kind, parse, type GraphQLField, type GraphQLNamedType, type GraphQLObjectType } from 'graphql';
import { StorageConfigError } from '../../errors/internal-errors';
import { ownValue } from '../../documents/read-path';
import { buildRootResolvers } from '../../request/roots/root-resolvers';
import { collectStorageMap } from '../storage-map/build-storage-map';
import type { StorageMap } from '../storage-map/storage-map-types';
import { namesRefusedField } from '../storage-map/refused-fields';
import { misplacedGeneratorProblems as misplacedGeneratorProblemsOf } from '../storage-map/misplaced-generator';
import { buildFieldResolvers } from '../../request/strategies/build-field-resolvers';
import { collectWriteModel } from '../write-model/build-write-model';
import { buildMutationResolvers } from '../../request/roots/generated-mutation-resolvers';
import { buildGeneratedMutations } from '../../writes/generated-mutations';
import type { CounterRule, WriteModel } from '../write-model/write-model-types';
import type { MutationWritePlans } from '../../writes/write-plan';
import type { AnyResolver, Ownership } from '../../operation/plan/owned-plan';
import { DOCJOIN_DIRECTIVE_NAMES, directiveTypeDefs } from './directive-type-defs';
import { withPageDefaults } from './page-defaults';
import { PROVIDED_SCALARS } from '../scalars/provided-scalars';
import { EXACT_SCALARS } from '../aggregates/aggregate-names';
import { buildAccessRules } from '../access-rules/build-access-rules';
import type { AccessRules } from '../access-rules/access-rule-types';
import type { MutationActions } from '../../operation/access/operation-access';
import { resolverMapProblems, writePlanKeyProblems } from './resolver-map-problems';

export interface GatewaySchema {
  /** The executable schema clients see: storage directives and their ReadStrategy enum removed. */
  readonly schema: GraphQLSchema;
  readonly storageMap: StorageMap;
  readonly writeModel: WriteModel;
  /** Every Mutation field's write plan: the generated mutations' derived ones and the hand-written ones given. */
  readonly writePlans: MutationWritePlans;
  /** The resolvers docjoin built: what decides which queries it runs from its own plan (operation/plan/owned-plan.ts). */
  readonly ownership: Ownership;
  /** The `@access` rules, checked against every path the data can take. */
  readonly accessRules: AccessRules;
  /** The generated mutations' actions by Mutation field name (what an access rule must allow). */
  readonly mutationActions: MutationActions;
}

/**
 * The schema's problems, with what could be built despite them: the storage map of its valid fields and
 * its valid counters, which the database check can still go over in the same start.
 */
export class SchemaProblems extends StorageConfigError {
  constructor(
    problems: readonly string[],
    readonly storageMap: StorageMap,
    readonly counters: readonly CounterRule[],
  ) {
    super(problems);
  }
}

/** The types docjoin's directive definitions declare (ReadStrategy, FilterOp, AccessMatch, AccessValue…): storage-only, hidden from clients. */
const STORAGE_ONLY_TYPES = new Set(
  parse(directiveTypeDefs).definitions.flatMap((definition) =>
    definition.kind === Kind.ENUM_TYPE_DEFINITION || definition.kind === Kind.INPUT_OBJECT_TYPE_DEFINITION || definition.kind === Kind.SCALAR_TYPE_DEFINITION ? [definition.name.value] : [],
  ),
);

/**
 * SDL → storage map (parsed and validated once) → resolvers built from it (relation and stored fields,
 * generated root fields), merged with the hand-written ones → public schema. Throws StorageConfigError
 * on inconsistent directives, and on a root field with no resolver or with both a generated and a
 * hand-written one. With `rootResolversToCome` (codegen, which types them before they are written), a
 * root field with no resolver is let through.
 */
export function buildGatewaySchema(options: {
  typeDefs: readonly string[];
  resolvers: IResolvers | readonly IResolvers[];
  writePlans?: MutationWritePlans;
  rootResolversToCome?: boolean;
}): GatewaySchema {
  const typeDefs = [...options.typeDefs];
  const sdlSchema = makeExecutableSchema({ typeDefs });
  // Each step checks what the steps before it could build, so one start reports every mistake.
  const { storageMap, problems: storageProblems } = collectStorageMap(sdlSchema);
  const { model: writeModel, problems: writeModelProblems } = collectWriteModel(sdlSchema, storageMap);
  const mutations = buildGeneratedMutations(sdlSchema, writeModel);
  const access = buildAccessRules(sdlSchema, storageMap, writeModel);
  const handWritten = Array.isArray(options.resolvers) ? (options.resolvers as readonly IResolvers[]) : [options.resolvers as IResolvers];
  const rootResolvers: Record<string, Record<string, unknown>> = { ...buildRootResolvers(storageMap) };
  const mutationType = sdlSchema.getMutationType();
  if (mutationType && mutations.mutations.size > 0) rootResolvers[mutationType.name] = buildMutationResolvers(mutations.mutations);
  // As `{ resolve }`: graphql-tools binds a bare function, and a plan knows a generated root by the function itself.
  const generated = Object.fromEntries(
    Object.entries(rootResolvers).map(([typeName, fields]) => [typeName, Object.fromEntries(Object.entries(fields).map(([fieldName, resolve]) => [fieldName, { resolve }]))]),
  ) as IResolvers;
  const handPlans = options.writePlans ?? {};
  const followingProblems = [
    ...writeModelProblems,
    ...mutations.problems,
    ...access.problems,
    ...misplacedGeneratorProblems(sdlSchema),
    ...subscriptionProblems(sdlSchema),
    ...resolverMapProblems(sdlSchema, handWritten),
    ...writePlanKeyProblems(sdlSchema, handPlans),
    ...rootResolverProblems(sdlSchema, handWritten, generated, options.rootResolversToCome === true),
    ...aggregatedResolverProblems(storageMap, handWritten),
    ...Object.keys(mutations.plans)
      .filter((fieldName) => Object.hasOwn(handPlans, fieldName))
      .map((fieldName) => `${mutationType!.name}.${fieldName}: its write plan is derived from its directive; remove the hand-written one`),
  ];
  // A field the storage map refused has its problem there; what the later checks say of it follows from that.
  const problems = [...storageProblems, ...followingProblems.filter((problem) => !namesRefusedField(problem, storageMap.refused))];
  if (problems.length > 0) throw new SchemaProblems(problems, storageMap, writeModel.counters);
  const fieldResolvers = buildFieldResolvers(storageMap, writeModel);
  const executable = makeExecutableSchema({ typeDefs: withPageDefaults(typeDefs, storageMap), resolvers: [fieldResolvers as IResolvers, generated, ...providedScalars(sdlSchema, handWritten), ...handWritten] });
  const mappedEnumConstants = enumConstantsMappedAway(access.rules, storageMap, executable);
  if (mappedEnumConstants.length > 0) throw new SchemaProblems(mappedEnumConstants, storageMap, writeModel.counters);
  const config = executable.toConfig();
  const schema = new GraphQLSchema({
    ...config,
    types: config.types.filter((type: GraphQLNamedType) => !STORAGE_ONLY_TYPES.has(type.name)),
    // The project's own directives stay (a client's `@trace`); docjoin's are for the server alone.
    directives: config.directives.filter((directive) => !DOCJOIN_DIRECTIVE_NAMES.has(directive.name)),
  });
  const ownership: Ownership = {
    storageMap,
    builtResolvers: builtResolversOf(schema),
    fieldResolvers: new Set(Object.values(fieldResolvers).flatMap((fields) => Object.values(fields).map((field) => field.resolve as AnyResolver))),
    rootResolvers: new Set(Object.values(rootResolvers).flatMap((fields) => Object.values(fields) as AnyResolver[])),
  };
  const mutationActions = new Map([...mutations.mutations].map(([fieldName, mutation]) => [fieldName, { kind: mutation.kind, typeName: mutation.typeName }]));
  return { schema, storageMap, writeModel, writePlans: { ...handPlans, ...mutations.plans }, ownership, accessRules: access.rules, mutationActions };
}

/** What a resolver map gives a type, or a field of it: its own entries only (a field named `constructor` inherits one from `{}`). */
function resolverOf(resolvers: IResolvers, typeName: string, fieldName?: string): unknown {
  const type = ownValue(resolvers as Record<string, unknown>, typeName);
  if (fieldName === undefined) return type;
  return type !== null && typeof type === 'object' ? ownValue(type as Record<string, unknown>, fieldName) : undefined;
}

/** docjoin's scalars (DateTime, Decimal, Long) a schema has, except those the hand-written resolvers give their own of. */
function providedScalars(schema: GraphQLSchema, handWritten: readonly IResolvers[]): IResolvers[] {
  const provided: IResolvers[] = [];
  for (const [name, { scalar }] of PROVIDED_SCALARS) {
    const givesOwn = handWritten.some((resolvers) => resolverOf(resolvers, name) !== undefined);
    const declared = schema.getType(name);
    if (isScalarType(declared) && !givesOwn) provided.push({ [name]: describedAsDeclared(scalar, declared) });
  }
  return provided;
}

/** docjoin's scalar with the description and `@specifiedBy` the SDL gives it, where it gives them: the project's words are served. */
function describedAsDeclared(scalar: GraphQLScalarType, declared: GraphQLScalarType): GraphQLScalarType {
  if (declared.description == null && declared.specifiedByURL == null) return scalar;
  return new GraphQLScalarType({ ...scalar.toConfig(), description: declared.description ?? scalar.description, specifiedByURL: declared.specifiedByURL ?? scalar.specifiedByURL });
}

/**
 * Each field's resolver as the schema was built. Apollo Server wraps every resolver of a schema in place
 * the first time graphql-js runs an operation for a plugin with `willResolveField` (its default cache
 * control has one); docjoin still knows its own resolvers by what they were.
 */
function builtResolversOf(schema: GraphQLSchema): ReadonlyMap<GraphQLField<unknown, unknown>, AnyResolver> {
  const resolvers = new Map<GraphQLField<unknown, unknown>, AnyResolver>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) if (field.resolve) resolvers.set(field, field.resolve as AnyResolver);
  }
  return resolvers;
}
/**
 * An aggregate reads stored values inside MongoDB: a figure or group key over a field with a hand-written
 * resolver would add up what is stored, not what the field answers.
 */
function aggregatedResolverProblems(storageMap: StorageMap, handWritten: readonly IResolvers[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const aggregate of storageMap.aggregates.values()) {
    const fields = [...[...aggregate.figures.values()].map((figure) => ['fields', figure.fieldName] as const), ...[...aggregate.keys.values()].filter((key) => !key.references).map((key) => ['groupBy', key.fieldName] as const)];
    const exact = [...[...aggregate.figures.values()].map((figure) => ['fields', figure.fieldName, figure.scalar] as const), ...[...aggregate.keys.values()].map((key) => ['groupBy', key.fieldName, key.scalar] as const)];
    for (const [argument, fieldName, scalar] of exact) {
      const own = EXACT_SCALARS.has(scalar) && handWritten.some((resolvers) => resolverOf(resolvers, scalar) !== undefined && resolverOf(resolvers, scalar) !== PROVIDED_SCALARS.get(scalar)?.scalar);
      const coordinate = `${aggregate.targetType}.${fieldName}`;
      if (!own || seen.has(`${coordinate} scalar`)) continue;
      seen.add(`${coordinate} scalar`);
      problems.push(`${aggregate.coordinate}: @aggregate(${argument}:) names ${coordinate}, a ${scalar} your resolvers define, but docjoin gives only its own ${scalar} exactly (the BSON values MongoDB computes); drop your ${scalar} resolver, or aggregate another field`);
    }
    for (const [argument, fieldName] of fields) {
      const coordinate = `${aggregate.targetType}.${fieldName}`;
      const written = handWritten.some((resolvers) => resolverOf(resolvers, aggregate.targetType, fieldName) !== undefined);
      if (!written || seen.has(coordinate)) continue;
      seen.add(coordinate);
      problems.push(`${aggregate.coordinate}: @aggregate(${argument}:) names ${coordinate}, which has a hand-written resolver, but MongoDB aggregates the stored value; store what the resolver computes, or aggregate another field`);
    }
  }
  return problems;
}

/**
 * Every Query and Mutation field needs exactly one resolver: generated (`@find`, `@list`, `@create`,
 * `@update`, `@delete`) or hand-written.
 * Without one it would answer null (or fail as non-nullable) at request time; with both, which one runs
 * would depend on merge order.
 */
const GENERATING_DIRECTIVES = ['find', 'list', 'aggregate', 'create', 'update', 'delete'];

/**
 * An `@access` constant on an enum field is kept as the value's name; where the resolvers map the enum
 * (`Status: { DRAFT: 'd' }`) the documents hold another value, and the rule would match no row and
 * preset the name. Refused until such constants follow the mapping.
 */
function enumConstantsMappedAway(rules: AccessRules, storageMap: StorageMap, executable: GraphQLSchema): string[] {
  const problems = new Set<string>();
  for (const type of rules.types.values()) {
    for (const rule of type.roles.values()) {
      for (const condition of [rule.read, rule.create, rule.update, rule.delete].flatMap((action) => action?.where ?? [])) {
        const field = storageMap.types.get(type.typeName)?.fields.get(condition.fieldName);
        if ('claim' in condition.equals || field?.kind !== 'stored' || !field.valueType.isEnum) continue;
        const enumType = executable.getType(field.valueType.name);
        const stored = isEnumType(enumType) ? enumType.getValue(String(condition.equals.constant))?.value : undefined;
        if (stored !== condition.equals.constant) {
          problems.add(`${type.typeName}: @access where: { field: "${condition.fieldName}", equals: ${String(condition.equals.constant)} } compares the documents with the enum value's name, but the resolvers store ${field.valueType.name}.${String(condition.equals.constant)} as ${JSON.stringify(stored)}; compare ${condition.fieldName} with a claim, or store the enum by its names`);
        }
      }
    }
  }
  return [...problems];
}

/** Every generating directive on a field of the wrong type (misplaced-generator.ts). */
function misplacedGeneratorProblems(schema: GraphQLSchema): string[] {
  return Object.values(schema.getTypeMap())
    .filter((type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith('__'))
    .flatMap((type) => Object.values(type.getFields()).flatMap((field) => misplacedGeneratorProblemsOf(schema, type, field)));
}

/** docjoin executes queries and mutations only: a subscription root would be in the public schema and codegen's types, yet refused at every request. */
function subscriptionProblems(schema: GraphQLSchema): string[] {
  const subscriptionType = schema.getSubscriptionType();
  if (!subscriptionType) return [];
  const fields = Object.keys(subscriptionType.getFields());
  return [`${subscriptionType.name}${fields.length > 0 ? `.${fields[0]}` : ''}: docjoin serves queries and mutations, not subscriptions; remove type ${subscriptionType.name} (${fields.length} field${fields.length === 1 ? '' : 's'}) from the SDL and serve subscriptions from another server`];
}

function rootResolverProblems(schema: GraphQLSchema, handWritten: readonly IResolvers[], generated: IResolvers, missingAllowed: boolean): string[] {
  const problems: string[] = [];
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    if (!type) continue;
    for (const fieldName of Object.keys(type.getFields())) {
      const coordinate = `${type.name}.${fieldName}`;
      const written = handWritten.some((resolvers) => resolverOf(resolvers, type.name, fieldName) !== undefined);
      const isGenerated = resolverOf(generated, type.name, fieldName) !== undefined;
      if (written && isGenerated) problems.push(`${coordinate}: has a generated resolver (@find, @list, @create, @update or @delete) and a hand-written one; remove the directive or the resolver`);
      // A field declaring what generates it was refused by the check of that directive, which says why.
      else if (!missingAllowed && !written && !isGenerated && !GENERATING_DIRECTIVES.some((name) => getDirective(schema, type.getFields()[fieldName]!, name)?.[0] !== undefined)) {
        problems.push(
          type === schema.getQueryType()
            ? `${coordinate}: no resolver; add @find or @list to generate it, or pass a resolver for ${coordinate}`
            : `${coordinate}: no resolver; add @create, @update or @delete to generate it, or pass a resolver for ${coordinate} with its write plan`,
        );
      }
    }
  }
  return problems;
}
