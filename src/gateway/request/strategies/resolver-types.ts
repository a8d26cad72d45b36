import type { GraphQLResolveInfo } from 'graphql';
import type { GatewayContext } from '../context/request-context';
import type { FieldCostRecorder } from '../cost/cost-ledger';
import type { StoredDocument } from '../../documents/stored-document';
import type { PageArgs } from '../../operation/planning/page-request';
import type { RequestedList } from '../../operation/planning/requested-list';
import type { RelationField } from '../../startup/storage-map/storage-map-types';

/** What a strategy gets to resolve one relation field of one parent document. */
export interface RelationRequest {
  readonly field: RelationField;
  readonly parent: StoredDocument;
  /** Page arguments, and a reverse join's filters and orderBy. */
  readonly args: PageArgs & Readonly<Record<string, unknown>>;
  /** The filters and order `args` ask for (read once per resolve, shared by every strategy). */
  readonly requested: RequestedList;
  readonly context: GatewayContext;
  readonly info: GraphQLResolveInfo;
  readonly cost: FieldCostRecorder;
}

/** A relation's value: one document, a list, or null — possibly later. */
export type RelationValue = unknown;
