import { Kind, parse, print, visit, type ConstDirectiveNode, type FieldDefinitionNode, type ObjectTypeDefinitionNode, type ObjectTypeExtensionNode } from 'graphql';

const READ_BY_LOOKUP: ConstDirectiveNode = {
  kind: Kind.DIRECTIVE,
  name: { kind: Kind.NAME, value: 'read' },
  arguments: [{ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: 'strategy' }, value: { kind: Kind.ENUM, value: 'LOOKUP' } }],
};

/**
 * The SDL with each field `coordinates` names (`Type.field`) read by lookup, as a team applies
 * `docjoin advise`'s `read-by-lookup`: `@read(strategy: LOOKUP)` in place of the field's own `@read`.
 * Throws for a coordinate no object type defines.
 */
export function readByLookup(typeDefs: readonly string[], coordinates: readonly string[]): string[] {
  const wanted = new Set(coordinates);
  const found = new Set<string>();
  const edited = typeDefs.map((sdl) => {
    let changed = false;
    const withLookups = (node: ObjectTypeDefinitionNode | ObjectTypeExtensionNode) => {
      const fields = node.fields?.map((field): FieldDefinitionNode => {
        const coordinate = `${node.name.value}.${field.name.value}`;
        if (!wanted.has(coordinate)) return field;
        found.add(coordinate);
        changed = true;
        return { ...field, directives: [...(field.directives ?? []).filter((directive) => directive.name.value !== 'read'), READ_BY_LOOKUP] };
      });
      return { ...node, fields };
    };
    const document = visit(parse(sdl), { ObjectTypeDefinition: withLookups, ObjectTypeExtension: withLookups });
    return changed ? print(document) : sdl;
  });
  const missing = coordinates.filter((coordinate) => !found.has(coordinate));
  if (missing.length > 0) throw new Error(`no object type defines ${missing.join(', ')}`);
  return edited;
}
