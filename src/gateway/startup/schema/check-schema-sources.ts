import {
  buildASTSchema,
  concatAST,
  getDirectiveValues,
  GraphQLError,
  isEnumType,
  getLocation,
  getNamedType,
  Kind,
  parse,
  Source,
  validateSchema,
  visit,
  type ASTNode,
  type DirectiveNode,
  type DocumentNode,
  type GraphQLDirective,
} from 'graphql';
import { suggestionList } from 'graphql/jsutils/suggestionList';
import { validateSDL } from 'graphql/validation/validate';
import { SchemaSourceError } from '../../errors/internal-errors';
import { withDirectiveTypeDefs } from './schema-sources';

/** One SDL file as the project holds it: `name` (a path to show, or `typeDefs[0]`) and its text. */
export interface SchemaSource {
  readonly name: string;
  readonly body: string;
}

/**
 * Refuses SDL that graphql-js would refuse later, deep in the schema's build and without saying where:
 * a syntax error, an unknown type, directive or argument, a missing required argument (graphql-js's SDL
 * rules), a schema graphql-js's schema rules refuse (an interface's field left out), and a directive
 * argument of the wrong type (`@read(strategy: SNAPSOT)`). Each problem is one
 * line, `file:line:column (Type.field): what graphql-js says`, all of them in one SchemaSourceError.
 */
export function checkSchemaSources(sources: readonly SchemaSource[]): void {
  const parsed: Array<{ readonly source: SchemaSource; readonly document: DocumentNode }> = [];
  const problems: string[] = [];
  for (const source of sources) {
    try {
      parsed.push({ source, document: parse(new Source(source.body, source.name)) });
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      problems.push(located(error, []));
    }
  }
  if (problems.length > 0) throw new SchemaSourceError(problems);
  const documents = parsed.map(({ document }) => document);
  // What docjoin adds (its directives, the scalars it provides, the aggregate types) goes in front and behind, unnamed.
  const bodies = new Set(sources.map((source) => source.body));
  const provided = withDirectiveTypeDefs(sources.map((source) => source.body))
    .filter((body) => !bodies.has(body))
    .map((body) => parse(body));
  const whole = concatAST([...provided, ...documents]);
  const sdlErrors = validateSDL(whole);
  if (sdlErrors.length > 0) throw new SchemaSourceError(withoutEchoesOfDuplicateTypes(sdlErrors, documents).map((error) => located(error, documents, directiveSuggestion(error, whole) || unknownTypeHint(error))));
  const schema = buildASTSchema(whole, { assumeValidSDL: true });
  // What only a whole schema can break: an interface's field left out, a name starting with "__"…
  const schemaErrors = validateSchema(schema);
  if (schemaErrors.length > 0) throw new SchemaSourceError(schemaErrors.map((error) => located(error, documents)));
  for (const document of documents) {
    visit(document, {
      Directive(node: DirectiveNode) {
        const definition = schema.getDirective(node.name.value);
        if (!definition) return;
        try {
          getDirectiveValues(definition, { directives: [node] });
        } catch (error) {
          if (!(error instanceof GraphQLError)) throw error;
          problems.push(located(error, documents, expectedValues(definition, node)));
        }
      },
    });
  }
  if (problems.length > 0) throw new SchemaSourceError(problems);
}

/** graphql-js suggests no name for an unknown directive: the nearest of those defined. */
function directiveSuggestion(error: GraphQLError, whole: DocumentNode): string {
  const unknown = /^Unknown directive "@(\w+)"\.$/.exec(error.message)?.[1];
  if (unknown === undefined) return '';
  const defined = whole.definitions.flatMap((definition) => (definition.kind === Kind.DIRECTIVE_DEFINITION ? [definition.name.value] : []));
  const [nearest] = suggestionList(unknown, defined);
  return nearest === undefined ? '' : ` Did you mean "@${nearest}"?`;
}

/** An unknown type graphql-js finds no near name for (`JSON`): how to declare one, and which scalars docjoin adds itself. */
function unknownTypeHint(error: GraphQLError): string {
  const unknown = /^Unknown type "(\w+)"\.$/.exec(error.message)?.[1];
  return unknown === undefined ? '' : ` Declare it (scalar ${unknown} for a scalar of your own; docjoin adds DateTime, Decimal and Long when the SDL uses them).`;
}

/** For an enum argument given a value it does not have: the values it takes. */
function expectedValues(directive: GraphQLDirective, node: DirectiveNode): string {
  for (const argument of node.arguments ?? []) {
    const type = directive.args.find((arg) => arg.name === argument.name.value)?.type;
    const named = type && getNamedType(type);
    if (!isEnumType(named)) continue;
    const values = argument.value.kind === Kind.LIST ? argument.value.values : [argument.value];
    const unknown = values.some((value) => value.kind === Kind.ENUM && named.getValue(value.value) === undefined);
    if (unknown) return ` ${named.name} takes ${named.getValues().map((value) => value.name).join(', ')}.`;
  }
  return '';
}

/**
 * `file:line:column (Type.field): message`, as far as the error tells its place: in the project's files,
 * where the error names a place there too (a type named like one of docjoin's is the project's to rename).
 */
function located(error: GraphQLError, documents: readonly DocumentNode[], hint = ''): string {
  const sources = new Set(documents.map((document) => document.loc?.source));
  const nodes = error.nodes ?? [];
  const node = nodes.find((candidate) => candidate.loc !== undefined && sources.has(candidate.loc.source)) ?? nodes[0];
  const source = node?.loc?.source ?? error.source;
  const location = error.locations?.[0];
  const where = node?.loc ? placeOf(node) : source && location ? `${source.name}:${location.line}:${location.column}` : undefined;
  const coordinate = node?.loc ? coordinateAt(documents, node) : undefined;
  const place = [where, coordinate && `(${coordinate})`].filter(Boolean).join(' ');
  const duplicate = DECLARED_TWICE.test(error.message);
  const clashesWithDocjoin = node !== nodes[0] && duplicate;
  // A name declared twice in the project: every other place too, in whichever files they are.
  const others = duplicate ? nodes.filter((other) => other !== node && other.loc !== undefined && sources.has(other.loc.source)).map(placeOf) : [];
  const alsoAt = others.length > 0 ? ` Also at ${others.join(', ')}.` : '';
  return `${place ? `${place}: ` : ''}${error.message}${alsoAt}${hint}${clashesWithDocjoin ? " docjoin's own SDL declares that name; rename yours." : ''}`;
}

/** graphql-js's messages for a name given twice: a type, a field, an argument, a value, a directive where one is allowed. */
const DECLARED_TWICE = /^There can be only one |can only be defined once\.$|can only be used once at this location\.$/;

/**
 * A type declared twice makes each of its fields and directives a duplicate too: those follow from the
 * type's error, which names both places, so only it is kept.
 */
function withoutEchoesOfDuplicateTypes(errors: readonly GraphQLError[], documents: readonly DocumentNode[]): GraphQLError[] {
  const duplicated = new Set(errors.flatMap((error) => /^There can be only one type named "(\w+)"\.$/.exec(error.message)?.[1] ?? []));
  if (duplicated.size === 0) return [...errors];
  return errors.filter((error) => {
    if (error.message.startsWith('There can be only one') || !DECLARED_TWICE.test(error.message)) return true;
    const node = error.nodes?.find((candidate) => candidate.loc !== undefined);
    const typeName = node && coordinateAt(documents, node)?.split('.')[0];
    return typeName === undefined || !duplicated.has(typeName);
  });
}

function placeOf(node: ASTNode): string {
  const { line, column } = getLocation(node.loc!.source, node.loc!.start);
  return `${node.loc!.source.name}:${line}:${column}`;
}

/** The type, and the field or enum value, whose definition holds `node`. */
function coordinateAt(documents: readonly DocumentNode[], node: ASTNode): string | undefined {
  const { start, source } = node.loc!;
  const holds = (outer: ASTNode) => outer.loc !== undefined && outer.loc.source === source && outer.loc.start <= start && start < outer.loc.end;
  for (const document of documents) {
    for (const definition of document.definitions) {
      if (!holds(definition) || !('name' in definition) || !definition.name) continue;
      const members = 'fields' in definition ? definition.fields : 'values' in definition ? definition.values : undefined;
      const member = members?.find((candidate) => holds(candidate));
      const prefix = definition.kind === Kind.DIRECTIVE_DEFINITION ? '@' : '';
      return member ? `${prefix}${definition.name.value}.${member.name.value}` : `${prefix}${definition.name.value}`;
    }
  }
  return undefined;
}
