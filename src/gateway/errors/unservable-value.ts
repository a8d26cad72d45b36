import { getNamedType, GraphQLError, isLeafType, Kind, parse, TypeInfo, visit, visitWithTypeInfo, type GraphQLSchema, type Source } from 'graphql';

/** What the log says of a leaf that could not serialize its value: the field, and where to look. */
export interface UnservableValue {
  /** `Customer.age`. */
  readonly field: string;
  readonly hint: string;
}

/**
 * The field whose value its type could not serialize (`Int cannot represent non-integer value: "forty"`):
 * found by the error's location in its operation. The stored value is of another type than the schema's,
 * which graphql-js's message does not say; undefined for any other error.
 */
export function unservableValue(schema: GraphQLSchema, error: unknown): UnservableValue | undefined {
  if (!(error instanceof GraphQLError)) return undefined;
  const node = error.nodes?.[0];
  const source = error.source;
  if (node?.kind !== Kind.FIELD || node.loc === undefined || source === undefined || !/ cannot represent /.test(error.message)) return undefined;
  const field = leafFieldsOf(schema, source).get(node.loc.start);
  return field === undefined
    ? undefined
    : { field, hint: `a stored ${field} value is not of the type the schema declares: fix the data or the type (the startup check warns of such documents)` };
}

/** Per operation text, its leaf fields (`Type.field`) by where they start: parsed once, however many of its values fail. */
const leafFields = new WeakMap<Source, ReadonlyMap<number, string>>();

function leafFieldsOf(schema: GraphQLSchema, source: Source): ReadonlyMap<number, string> {
  let fields = leafFields.get(source);
  if (fields) return fields;
  const found = new Map<number, string>();
  const typeInfo = new TypeInfo(schema);
  try {
    visit(
      parse(source),
      visitWithTypeInfo(typeInfo, {
        Field(candidate) {
          const parent = typeInfo.getParentType();
          const definition = typeInfo.getFieldDef();
          if (candidate.loc && parent && definition && isLeafType(getNamedType(typeInfo.getType()))) found.set(candidate.loc.start, `${parent.name}.${definition.name}`);
        },
      }),
    );
  } catch {
    // A text that no longer parses names no field.
  }
  leafFields.set(source, (fields = found));
  return fields;
}
