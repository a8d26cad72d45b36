import { ObjectId } from 'bson';
import type { Viewer } from '../../request/authentication/authenticate';
import { NO_CLAIM, ViewerAccess } from '../../request/access/viewer-access';
import type { AccessRules } from '../../startup/access-rules/access-rule-types';
import type { StorageMap } from '../../startup/storage-map/storage-map-types';
import { operationAccessRefusal, type IntrospectionAccess, type MutationActions } from '../access/operation-access';
import { accessJoinsByRole, withAccessJoins } from '../access/role-joins';
import type { OperationPlan } from '../plan/operation-plan';
import { NO_OVERRIDES, type StrategyOverrides } from '../plan/strategy-overrides';

/**
 * What the access rules make of an operation for one viewer, as `docjoin explain --role` shows it: the
 * joins its role reads copies by, whether the role may run the operation at all, and the rows of each
 * type its commands are limited to (the filters the funnel adds inside MongoDB). Read from the same
 * rules and checks the server applies to a request.
 */
export interface ViewerExplanation {
  readonly viewer: Viewer;
  /** The relation fields the role reads by join whatever their strategy: copies that cannot show its conditions. */
  readonly joins: StrategyOverrides;
  /** The strategies a request asks for, with those joins, which win (as the server applies them). */
  strategies(requested: StrategyOverrides): StrategyOverrides;
  /** Why the server refuses the operation for this role (403 FORBIDDEN before anything runs); undefined when it runs. */
  refusal(plan: OperationPlan): string | undefined;
  /**
   * The rows of `typeName` the role reads: undefined for every row (a type it reads in full, or one
   * without a collection); `no rows: …` for a type it may not read; else its conditions, each with the
   * value the viewer's claim gives it when claims were given.
   */
  rows(typeName: string): string | undefined;
}

export interface ViewerExplanationInput {
  readonly accessRules: AccessRules;
  readonly storageMap: StorageMap;
  readonly mutationActions: MutationActions;
  readonly introspection: IntrospectionAccess;
}

/** Undefined when the project has no `@access` rule: every viewer then reads everything. */
export function explainViewer(input: ViewerExplanationInput, viewer: Viewer, claimsGiven: boolean): ViewerExplanation | undefined {
  const { accessRules: rules } = input;
  if (!rules.enabled) return undefined;
  const access = new ViewerAccess(rules, viewer);
  const context = { storageMap: input.storageMap, mutations: input.mutationActions, introspection: input.introspection };
  const joins = accessJoinsByRole(rules).get(viewer.role) ?? NO_OVERRIDES;
  return {
    viewer,
    joins,
    strategies: (requested) => withAccessJoins(requested, joins),
    refusal: (plan) => operationAccessRefusal(plan, access, viewer.role, context),
    rows: (typeName) => {
      if (!input.storageMap.types.get(typeName)?.collection) return undefined;
      if (!access.canRead(typeName)) return `no rows: role "${viewer.role}" may not read ${typeName}`;
      const conditions = access.readConditions(typeName);
      if (conditions.length === 0) return undefined;
      return conditions
        .map((condition) => {
          const named = `${condition.fieldName} = claim ${condition.claim}`;
          if (!claimsGiven) return named;
          const value = access.claimValue(condition);
          return value === NO_CLAIM ? `${named} (the viewer has no such claim that could match: no rows)` : `${named} (${describeValue(value)})`;
        })
        .join(' and ');
    },
  };
}

/** A viewer for explain: the role and claims given, or the anonymous one. */
export function explainedViewer(role: string, claims: Readonly<Record<string, unknown>> | undefined, anonymousRole: string): Viewer {
  const given = claims ?? {};
  const subject = typeof given.sub === 'string' ? given.sub : undefined;
  return Object.freeze({ role, roles: Object.freeze([role]), anonymous: claims === undefined && role === anonymousRole, subject, claims: Object.freeze({ ...given }) });
}

/** A claim's stored value as the mongo shell shows it: `ObjectId("…")`, a quoted string, a number or a boolean. */
function describeValue(value: unknown): string {
  return value instanceof ObjectId ? `ObjectId("${value.toHexString()}")` : JSON.stringify(value);
}
