import { ObjectId } from 'bson';
import type { Viewer } from '../../request/authentication/authenticate';
import { NO_CLAIM } from '../../request/access/stored-claim';
import { ViewerAccess } from '../../request/access/viewer-access';
import { describeCondition, type AccessRules, type RowCondition } from '../../startup/access-rules/access-rule-types';
import type { StorageMap } from '../../startup/storage-map/storage-map-types';
import { operationAccessRefusal, type IntrospectionAccess, type MutationActions } from '../access/operation-access';
import { accessJoinsByRole, withAccessJoins } from '../access/role-joins';
import type { OperationPlan } from '../plan/operation-plan';
import { NO_OVERRIDES, type StrategyOverrides } from '../plan/strategy-overrides';

/**
 * The rows of a type a viewer reads: all of them; none (the type is refused: a field reaching it answers
 * null with FORBIDDEN); or those where the conditions hold, described with the claims' values when given.
 */
export type ViewerRows = { readonly kind: 'every' } | { readonly kind: 'none' } | { readonly kind: 'where'; readonly conditions: string };

/**
 * What the access rules make of an operation for one viewer, as `docjoin explain --role` shows it: the
 * joins its role reads copies by, whether the role may run the operation at all, and the rows of each
 * type it reads (the filters the funnel adds inside MongoDB, and the checks of copies). Read from the
 * same rules and checks the server applies to a request.
 */
export interface ViewerExplanation {
  readonly viewer: Viewer;
  /** The relation fields the role reads by join whatever their strategy: copies that cannot show its conditions. */
  readonly joins: StrategyOverrides;
  /** The strategies a request asks for, with those joins, which win (as the server applies them). */
  strategies(requested: StrategyOverrides): StrategyOverrides;
  /** Why the server refuses the operation for this role (403 FORBIDDEN before anything runs); undefined when it runs. */
  refusal(plan: OperationPlan): string | undefined;
  /** The rows of `typeName` the role reads (a type without a collection: every row, its parent's rules decide). */
  rows(typeName: string): ViewerRows;
  /** Whether the role reads every row of `collection`: only then do the counters and totals stored for everyone answer its aggregates (EstimateInput.readsEveryRow). */
  readsEveryRow(collection: string): boolean;
  /**
   * What a generated mutation (by its Mutation field name) writes for the role: the type, the action,
   * and the rows an update or delete touches, or the values a create's conditions preset (`where`);
   * undefined for a field that is not a generated mutation, or one the role may not run (refusal says why).
   */
  writes(mutationField: string): ViewerWrite | undefined;
}

/** A generated mutation's write under the role's rule for it. */
export interface ViewerWrite {
  readonly typeName: string;
  readonly action: 'create' | 'update' | 'delete';
  /** Update and delete: the rows they may touch; create: `where` lists the fields its conditions set. */
  readonly rows: ViewerRows;
}

export interface ViewerExplanationInput {
  readonly accessRules: AccessRules;
  readonly storageMap: StorageMap;
  readonly mutationActions: MutationActions;
  readonly introspection: IntrospectionAccess;
}

const EVERY_ROW: ViewerRows = { kind: 'every' };
const NO_ROW: ViewerRows = { kind: 'none' };

/**
 * `claimsKnown`: the viewer's claims are what the server compares (they were given, or the operation
 * runs with the ones it has, none at all when none were given), so each condition shows its value, or
 * that it matches no row; otherwise the conditions are named by their claims alone.
 */
export function explainViewer(input: ViewerExplanationInput, viewer: Viewer, claimsKnown: boolean): ViewerExplanation {
  const { accessRules: rules } = input;
  const access = new ViewerAccess(rules, viewer);
  const context = { storageMap: input.storageMap, mutations: input.mutationActions, introspection: input.introspection };
  const joins = accessJoinsByRole(rules).get(viewer.role) ?? NO_OVERRIDES;
  return {
    viewer,
    joins,
    strategies: (requested) => withAccessJoins(requested, joins),
    refusal: (plan) => operationAccessRefusal(plan, rules.enabled ? access : undefined, viewer.role, context),
    readsEveryRow: (collection) => !rules.enabled || access.readsEveryRow(collection),
    rows: (typeName) => {
      if (!rules.enabled || !input.storageMap.types.get(typeName)?.collection) return EVERY_ROW;
      if (!access.canRead(typeName)) return NO_ROW;
      return rowsWhere(access, access.readConditions(typeName), claimsKnown);
    },
    writes: (mutationField) => {
      const generated = input.mutationActions.get(mutationField);
      if (!generated) return undefined;
      const { typeName, kind: action } = generated;
      if (!rules.enabled) return { typeName, action, rows: EVERY_ROW };
      const rule = rules.types.get(typeName)?.roles.get(viewer.role)?.[action];
      if (!rule || (rule.via.size > 0 && !rule.via.has(mutationField))) return undefined;
      return { typeName, action, rows: rowsWhere(access, rule.where, claimsKnown) };
    },
  };
}

/** Rows where every condition holds (every row when there are none), each condition with its claim's value when the claims are known. */
function rowsWhere(access: ViewerAccess, conditions: readonly RowCondition[], claimsKnown: boolean): ViewerRows {
  if (conditions.length === 0) return EVERY_ROW;
  const described = conditions.map((condition) => {
    const named = describeCondition(condition);
    if (!claimsKnown || !('claim' in condition.equals)) return named;
    const value = access.claimValue(condition);
    return value === NO_CLAIM ? `${named} (the viewer has no such claim that could match: no rows)` : `${named} (${describeValue(value)})`;
  });
  return { kind: 'where', conditions: described.join(' and ') };
}

/** A viewer for explain: the role and claims given (none: no claims). */
export function explainedViewer(role: string, claims: Readonly<Record<string, unknown>> | undefined, anonymousRole: string): Viewer {
  const given = claims ?? {};
  const subject = typeof given.sub === 'string' ? given.sub : undefined;
  return Object.freeze({ role, roles: Object.freeze([role]), anonymous: claims === undefined && role === anonymousRole, subject, claims: Object.freeze({ ...given }) });
}

/** A claim's stored value as the mongo shell shows it: `ObjectId("…")`, a quoted string, a number or a boolean. */
function describeValue(value: unknown): string {
  return value instanceof ObjectId ? `ObjectId("${value.toHexString()}")` : JSON.stringify(value);
}
