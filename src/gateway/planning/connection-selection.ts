import { isObjectType, type FieldNode } from 'graphql';
import { InvariantError } from '../errors/internal-errors';
import type { ConnectionType } from '../storage-map/storage-map-types';
import { collectFields, subSelections, type SelectionSource } from './collect-selection';

/** What a selection of a connection field asks for. */
export interface ConnectionSelection {
  /** The field nodes that select the listed documents (every `edges { node }` and `nodes`): what their projection needs. */
  readonly nodeFieldNodes: readonly FieldNode[];
  /** Whether anything needs the page's documents: edges, nodes or pageInfo. */
  readonly page: boolean;
  readonly totalCount: boolean;
}

export function connectionSelection(source: SelectionSource, connection: ConnectionType, fieldNodes: readonly FieldNode[]): ConnectionSelection {
  const nodeFieldNodes: FieldNode[] = [];
  let page = false;
  let totalCount = false;
  for (const [, nodes] of collectFields(source, objectType(source, connection.typeName), subSelections(fieldNodes), 'responseKey')) {
    switch (nodes[0]!.name.value) {
      case 'edges':
        page = true;
        for (const [, edgeNodes] of collectFields(source, objectType(source, connection.edgeType), subSelections(nodes), 'responseKey')) {
          if (edgeNodes[0]!.name.value === 'node') nodeFieldNodes.push(...edgeNodes);
        }
        break;
      case 'nodes':
        page = true;
        nodeFieldNodes.push(...nodes);
        break;
      case 'pageInfo':
        page = true;
        break;
      case 'totalCount':
        totalCount = true;
        break;
      default:
        break; // __typename
    }
  }
  return { nodeFieldNodes, page, totalCount };
}

function objectType(source: SelectionSource, name: string) {
  const type = source.schema.getType(name);
  if (!isObjectType(type)) throw new InvariantError(`connection type ${name} is not an object type`);
  return type;
}
