import { getNamedType, GraphQLError, isLeafType, Kind, parse, TypeInfo, visit, visitWithTypeInfo, type GraphQLSchema } from 'graphql';

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
  const body = error.source?.body;
  if (node?.kind !== Kind.FIELD || node.loc === undefined || body === undefined || !/ cannot represent /.test(error.message)) return undefined;
  const at = node.loc.start;
  const typeInfo = new TypeInfo(schema);
  let field: string | undefined;
  try {
    visit(
      parse(body),
      visitWithTypeInfo(typeInfo, {
        Field(candidate) {
          if (candidate.loc?.start !== at) return undefined;
          const parent = typeInfo.getParentType();
          const definition = typeInfo.getFieldDef();
          if (parent && definition && isLeafType(getNamedType(typeInfo.getType()))) field = `${parent.name}.${definition.name}`;
          return false;
        },
      }),
    );
  } catch {
    return undefined;
  }
  return field === undefined
    ? undefined
    : { field, hint: `a stored ${field} value is not of the type the schema declares: fix the data or the type (the startup check warns of such documents)` };
}

