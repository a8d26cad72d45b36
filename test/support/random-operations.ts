import {
  getNamedType,
  getNullableType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLArgument,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';

/**
 * Random GraphQL operations over any schema's Query type, for differential tests: aliases (the same
 * field twice with other arguments), a response key selected twice with other sub-selections, named
 * and inline fragments, `__typename`, `@skip` / `@include` with literals and variables, variables with
 * and without defaults (sometimes null, sometimes not sent), several operations in one document, and
 * nesting to a chosen depth. Mostly valid; the few that are not test validation's answers too.
 * Deterministic: the same seed gives the same operation.
 */
export interface RandomOperation {
  readonly query: string;
  readonly variables: Record<string, unknown>;
  /** Absent when the request names none. */
  readonly operationName?: string;
}

/** Values an argument may take: real ones from the database make finds find something. */
export interface ValuePools {
  /** Values for an argument of this name and named type (e.g. ids of the field's target type); empty: made up. */
  valuesFor(argument: string, type: GraphQLNamedType, fieldType: GraphQLNamedType): readonly unknown[];
}

/** A small fast PRNG (mulberry32): the same seed, the same sequence. */
export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.below(items.length)]!;
  }
}

/** An enum value as a variable holds it (its name) and a literal prints it (bare). */
class EnumLiteral {
  constructor(readonly name: string) {}
}

interface VariableDefinition {
  readonly type: string;
  readonly defaultLiteral?: string;
  /** Undefined: not sent. */
  readonly value: unknown;
  readonly sent: boolean;
}

/** One document's generation: its fragments and the variables of its main operation. */
class DocumentWriter {
  readonly fragments = new Map<string, { on: string; body: string }>();
  /** Fragments whose bodies are being written: spreading one of them again would be a cycle. */
  readonly #writing = new Set<string>();
  #aliases = 0;
  readonly variables = new Map<string, VariableDefinition>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly random: Random,
    private readonly pools: ValuePools,
    private readonly maxDepth: number,
  ) {}

  /** A selection set on `type` at `depth` (1 for the root's fields' selections). */
  selectionSet(type: GraphQLCompositeType, depth: number, literalsOnly = false): string {
    const entries: string[] = [];
    const selected: Array<{ key: string; field: GraphQLField<unknown, unknown>; args: string }> = [];
    const count = 1 + this.random.below(isAbstractType(type) ? 2 : 4);
    if (isAbstractType(type)) {
      if (this.random.chance(0.7)) entries.push('__typename');
      for (const possible of this.schema.getPossibleTypes(type)) {
        if (this.random.chance(0.6)) entries.push(`... on ${possible.name} ${this.selectionSet(possible, depth, literalsOnly)}`);
      }
      if (isInterfaceType(type) && this.random.chance(0.5)) entries.push(this.#field(type, depth, selected, literalsOnly));
      if (entries.length === 0) entries.push('__typename');
      return `{ ${entries.join(' ')} }`;
    }
    for (let index = 0; index < count; index++) {
      const roll = this.random.next();
      if (roll < 0.07) entries.push(this.random.chance(0.3) ? `${this.#alias('type')}: __typename` : '__typename');
      else if (roll < 0.15 && depth < this.maxDepth + 1) entries.push(`...${this.#maybeCondition(type)}${this.#directive(literalsOnly)} ${this.selectionSet(type, depth, literalsOnly)}`);
      else if (roll < 0.23 && !literalsOnly) entries.push(`...${this.#fragment(type, depth)}${this.#directive(literalsOnly)}`);
      else if (roll < 0.31 && selected.length > 0) entries.push(this.#again(this.random.pick(selected), depth, literalsOnly));
      else entries.push(this.#field(type, depth, selected, literalsOnly));
    }
    return `{ ${entries.join(' ')} }`;
  }

  #field(type: GraphQLObjectType | GraphQLCompositeType, depth: number, selected: Array<{ key: string; field: GraphQLField<unknown, unknown>; args: string }>, literalsOnly: boolean): string {
    const fields = Object.values((type as GraphQLObjectType).getFields()).filter((field) => depth < this.maxDepth || isLeafType(getNamedType(field.type)));
    if (fields.length === 0) return '__typename';
    const field = this.random.pick(fields);
    const args = this.#arguments(field.args, getNamedType(field.type), literalsOnly);
    // A field with arguments gets a key of its own, so that two of them never conflict; an alias is
    // sometimes the field's own name, and a plain field is sometimes aliased.
    const alias = args !== '' || this.random.chance(0.2) ? this.#alias(field.name) : undefined;
    const key = alias ?? field.name;
    selected.push({ key, field, args });
    return `${alias ? `${alias}: ` : ''}${field.name}${args}${this.#directive(literalsOnly)}${this.#subSelection(field, depth, literalsOnly)}`;
  }

  /** The same response key again, same field and arguments, another sub-selection (graphql-js merges them). */
  #again(earlier: { key: string; field: GraphQLField<unknown, unknown>; args: string }, depth: number, literalsOnly: boolean): string {
    const prefix = earlier.key === earlier.field.name ? '' : `${earlier.key}: `;
    return `${prefix}${earlier.field.name}${earlier.args}${this.#directive(literalsOnly)}${this.#subSelection(earlier.field, depth, literalsOnly)}`;
  }

  #subSelection(field: GraphQLField<unknown, unknown>, depth: number, literalsOnly: boolean): string {
    const target = getNamedType(field.type);
    return isLeafType(target) ? '' : ` ${this.selectionSet(target as GraphQLCompositeType, depth + 1, literalsOnly)}`;
  }

  #alias(fieldName: string): string {
    // `__proto__`, once in a while: a key a plain object cannot take as it takes others.
    if (this.random.chance(0.01)) return '__proto__';
    return this.random.chance(0.1) ? fieldName : `${fieldName}${this.#aliases++}`;
  }

  #maybeCondition(type: GraphQLCompositeType): string {
    return this.random.chance(0.5) ? ` on ${type.name}` : '';
  }

  /** A named fragment on `type`: a new one, or one made before (spread again). */
  #fragment(type: GraphQLCompositeType, depth: number): string {
    const known = [...this.fragments].filter(([name, fragment]) => fragment.on === type.name && !this.#writing.has(name)).map(([name]) => name);
    if (known.length > 0 && this.random.chance(0.4)) return this.random.pick(known);
    const name = `F${this.fragments.size}`;
    this.#writing.add(name);
    this.fragments.set(name, { on: type.name, body: '' });
    this.fragments.set(name, { on: type.name, body: this.selectionSet(type, depth) });
    this.#writing.delete(name);
    return name;
  }

  /** Sometimes `@skip` or `@include`, with a literal, a variable, or (rarely) a variable sent as null. */
  #directive(literalsOnly: boolean): string {
    if (!this.random.chance(0.14)) return '';
    const name = this.random.chance(0.5) ? 'skip' : 'include';
    if (literalsOnly || this.random.chance(0.5)) return ` @${name}(if: ${this.random.chance(0.5)})`;
    const variable = `b${this.variables.size}`;
    // A nullable variable stands where `Boolean!` is expected only with a default; sent as null, it fails.
    const roll = this.random.next();
    const fallback = String(this.random.chance(0.5));
    if (roll < 0.04) this.variables.set(variable, { type: 'Boolean', defaultLiteral: fallback, value: null, sent: true });
    else if (roll < 0.3) this.variables.set(variable, { type: 'Boolean', defaultLiteral: fallback, value: undefined, sent: false });
    else if (roll < 0.5) this.variables.set(variable, { type: 'Boolean', defaultLiteral: fallback, value: this.random.chance(0.5), sent: true });
    else this.variables.set(variable, { type: 'Boolean!', value: this.random.chance(0.5), sent: true });
    return ` @${name}(if: $${variable})`;
  }

  #arguments(definitions: readonly GraphQLArgument[], fieldType: GraphQLNamedType, literalsOnly: boolean): string {
    const given: string[] = [];
    for (const definition of definitions) {
      const required = isNonNullType(definition.type) && definition.defaultValue === undefined;
      if (!required && !this.random.chance(0.45)) continue;
      const value = this.#value(definition.name, definition.type, fieldType);
      if (!literalsOnly && this.random.chance(0.3)) {
        const variable = `v${this.variables.size}`;
        const typeName = String(definition.type);
        const unsent = !isNonNullType(definition.type) && this.random.chance(0.15);
        const defaultLiteral = !isNonNullType(definition.type) && this.random.chance(0.2) ? literal(this.#value(definition.name, definition.type, fieldType)) : undefined;
        this.variables.set(variable, { type: typeName, value: unsent ? undefined : toVariable(value), sent: !unsent, ...(defaultLiteral !== undefined && { defaultLiteral }) });
        given.push(`${definition.name}: $${variable}`);
      } else {
        given.push(`${definition.name}: ${literal(value)}`);
      }
    }
    return given.length > 0 ? `(${given.join(', ')})` : '';
  }

  /** A value for an argument of `type`: mostly from the pools, sometimes null or out of range. */
  #value(argument: string, type: GraphQLInputType, fieldType: GraphQLNamedType): unknown {
    if (!isNonNullType(type) && this.random.chance(0.08)) return null;
    const inner = getNullableType(type);
    if (isListType(inner)) {
      const length = this.random.below(3);
      return Array.from({ length }, () => this.#value(argument, inner.ofType, fieldType));
    }
    const named = getNamedType(inner);
    if (isEnumType(named)) return new EnumLiteral(this.random.pick(named.getValues()).name);
    if (isInputObjectType(named)) {
      const object: Record<string, unknown> = {};
      for (const field of Object.values(named.getFields())) {
        if (isNonNullType(field.type) || this.random.chance(0.5)) object[field.name] = this.#value(field.name, field.type, fieldType);
      }
      return object;
    }
    const pooled = this.pools.valuesFor(argument, named, fieldType);
    if (pooled.length > 0 && this.random.chance(0.85)) return this.random.pick(pooled);
    if (isScalarType(named)) {
      switch (named.name) {
        case 'Int':
          return /^(first|last|limit)$/.test(argument) ? this.random.pick([0, 1, 2, 3, 3, -1]) : this.random.pick([0, 1, 5, -3]);
        case 'Float':
          return this.random.pick([0, 1.5, 100, -2.25]);
        case 'Boolean':
          return this.random.chance(0.5);
        case 'ID':
          return this.random.pick(['000000000000000000000000', 'not-an-id']);
        case 'DateTime':
          return this.random.pick(['2026-01-01T00:00:00.000Z', '2030-06-01T12:00:00Z', 'yesterday']);
        default:
          return this.random.pick(['', 'zzz', 'a']);
      }
    }
    return null;
  }
}

/** A value as a variable holds it (JSON). */
function toVariable(value: unknown): unknown {
  if (value instanceof EnumLiteral) return value.name;
  if (Array.isArray(value)) return value.map(toVariable);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toVariable(item)]));
  return value;
}

/** A value as a literal in the document. */
function literal(value: unknown): string {
  if (value instanceof EnumLiteral) return value.name;
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value === 'object') return `{ ${Object.entries(value).map(([key, item]) => `${key}: ${literal(item)}`).join(', ')} }`;
  if (typeof value === 'string') return JSON.stringify(value);
  return String(value);
}

/** One random query operation (and sometimes others beside it) over `schema`, from `seed`. */
export function randomOperation(schema: GraphQLSchema, pools: ValuePools, seed: number): RandomOperation {
  const random = new Random(seed);
  const queryType = schema.getQueryType();
  if (!queryType) throw new Error('the schema has no Query type');
  const maxDepth = 1 + random.below(6);
  const writer = new DocumentWriter(schema, random, pools, maxDepth);
  const selection = writer.selectionSet(queryType, 0);
  const variables: Record<string, unknown> = {};
  const definitions: string[] = [];
  for (const [name, definition] of writer.variables) {
    definitions.push(`$${name}: ${definition.type}${definition.defaultLiteral !== undefined ? ` = ${definition.defaultLiteral}` : ''}`);
    if (definition.sent) variables[name] = definition.value;
  }
  const others = random.chance(0.2) ? 1 + random.below(2) : 0;
  const anonymous = others === 0 && definitions.length === 0 && random.chance(0.4);
  const name = 'Main';
  const main = anonymous ? selection : `query ${name}${definitions.length > 0 ? `(${definitions.join(', ')})` : ''} ${selection}`;
  const operations = [main];
  for (let index = 0; index < others; index++) operations.push(`query Other${index} ${new DocumentWriter(schema, random, pools, 1 + random.below(2)).selectionSet(queryType, 0, true)}`);
  const fragments = [...writer.fragments].map(([fragmentName, fragment]) => `fragment ${fragmentName} on ${fragment.on} ${fragment.body}`);
  // Which operation the request names: the main one, none (fine for a single one), or a wrong one.
  const roll = random.next();
  const operationName = anonymous ? (roll < 0.03 ? 'Main' : undefined) : roll < 0.04 ? undefined : roll < 0.07 ? 'Missing' : others === 0 && roll < 0.3 ? undefined : name;
  const shuffled = random.chance(0.5) ? operations : [...operations].reverse();
  return { query: [...shuffled, ...fragments].join('\n'), variables, ...(operationName !== undefined && { operationName }) };
}
