import {
  getNamedType,
  getNullableType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from 'graphql';
import type { ConnectionType } from './storage-map-types';

/**
 * Relay connection types, recognized by their shape: an object type with `edges` and `pageInfo`.
 *
 *   type CommentConnection { edges: [CommentEdge!]!  pageInfo: PageInfo!  totalCount: Int!  nodes: [Comment!]! }
 *   type CommentEdge { cursor: String!  node: Comment! }
 *   type PageInfo { hasNextPage: Boolean!  hasPreviousPage: Boolean!  startCursor: String  endCursor: String }
 *
 * `totalCount` and `nodes` are optional. docjoin resolves every field of these three types itself, so
 * any other field is a problem ("Type.field: …" with the fix), reported in `problems`.
 */
export function readConnectionTypes(objectTypes: readonly GraphQLObjectType[], problems: string[]): ConnectionTypes {
  const connections = new Map<string, ConnectionType>();
  const plumbing = new Set<string>();
  for (const type of objectTypes) {
    const fields = type.getFields();
    if (!fields.edges || !fields.pageInfo) continue;
    for (const part of [type, getNamedType(fields.edges.type), getNamedType(fields.pageInfo.type)]) if (isObjectType(part)) plumbing.add(part.name);
    const connection = readConnectionType(type, problems);
    if (connection) connections.set(type.name, connection);
  }
  return { connections, plumbing };
}

export interface ConnectionTypes {
  /** The well-formed connection types by name. */
  readonly connections: ReadonlyMap<string, ConnectionType>;
  /**
   * Every connection type, edge type and page-info type, well-formed or not: none of them is stored, and
   * the problems of a malformed one are already reported.
   */
  readonly plumbing: ReadonlySet<string>;
}

function readConnectionType(type: GraphQLObjectType, problems: string[]): ConnectionType | undefined {
  const before = problems.length;
  const report = (field: string, message: string): undefined => {
    problems.push(`${type.name}.${field}: ${message}`);
    return undefined;
  };
  const fields = type.getFields();
  const edges = fields.edges!;
  const edgeType = getNamedType(edges.type);
  if (!isObjectType(edgeType) || !isRequiredListOf(edges.type)) {
    return report('edges', `a connection's edges must be a list of edge objects, e.g. edges: [${type.name.replace(/Connection$/, '')}Edge!]!`);
  }
  const edgeFields = edgeType.getFields();
  const node = edgeFields.node;
  const nodeType = node && getNamedType(node.type);
  if (!node || !isObjectType(nodeType) || isListType(getNullableType(node.type))) {
    return report('edges', `edge type ${edgeType.name} needs node: T!, where T is the @collection type the connection lists`);
  }
  if (!edgeFields.cursor || !isRequired(edgeFields.cursor, 'String')) report('edges', `edge type ${edgeType.name} needs cursor: String!`);
  for (const name of Object.keys(edgeFields)) {
    if (name !== 'node' && name !== 'cursor') report('edges', `${edgeType.name}.${name}: docjoin resolves an edge's node and cursor only; remove ${name}`);
  }

  const pageInfoType = getNamedType(fields.pageInfo!.type);
  if (!isObjectType(pageInfoType) || !isNonNullType(fields.pageInfo!.type)) return report('pageInfo', 'must be PageInfo! (hasNextPage, hasPreviousPage, startCursor, endCursor)');
  checkPageInfo(pageInfoType, (message) => report('pageInfo', message));

  const totalCount = fields.totalCount;
  if (totalCount && !isRequired(totalCount, 'Int')) report('totalCount', 'must be Int!');
  const nodes = fields.nodes;
  if (nodes && (getNamedType(nodes.type) !== nodeType || !isRequiredListOf(nodes.type))) report('nodes', `must be [${nodeType.name}!]!, the edges' nodes`);
  for (const name of Object.keys(fields)) {
    if (!['edges', 'pageInfo', 'totalCount', 'nodes'].includes(name)) {
      report(name, `docjoin resolves a connection's edges, pageInfo, totalCount and nodes only; remove ${name} (or resolve it in a type of its own)`);
    }
  }
  if (problems.length > before) return undefined;
  return Object.freeze({
    typeName: type.name,
    edgeType: edgeType.name,
    nodeType: nodeType.name,
    pageInfoType: pageInfoType.name,
    totalCount: totalCount !== undefined,
  });
}

const PAGE_INFO_FIELDS: Readonly<Record<string, { type: string; required: boolean }>> = {
  hasNextPage: { type: 'Boolean', required: true },
  hasPreviousPage: { type: 'Boolean', required: true },
  startCursor: { type: 'String', required: false },
  endCursor: { type: 'String', required: false },
};

function checkPageInfo(type: GraphQLObjectType, report: (message: string) => undefined): void {
  const fields = type.getFields();
  for (const [name, expected] of Object.entries(PAGE_INFO_FIELDS)) {
    const field = fields[name];
    const typeName = `${expected.type}${expected.required ? '!' : ''}`;
    if (!field) report(`${type.name} needs ${name}: ${typeName}`);
    else if (String(field.type) !== typeName) report(`${type.name}.${name} must be ${typeName}`);
  }
  for (const name of Object.keys(fields)) {
    if (!(name in PAGE_INFO_FIELDS)) report(`${type.name}.${name}: docjoin resolves hasNextPage, hasPreviousPage, startCursor and endCursor only; remove ${name}`);
  }
}

function isRequired(field: GraphQLField<unknown, unknown>, typeName: string): boolean {
  return String(field.type) === `${typeName}!`;
}

/** `[T!]!` */
function isRequiredListOf(type: GraphQLOutputType): boolean {
  if (!isNonNullType(type) || !isListType(type.ofType)) return false;
  return isNonNullType(type.ofType.ofType);
}
