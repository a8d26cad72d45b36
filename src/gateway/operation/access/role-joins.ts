import type { AccessRules } from '../../startup/access-rules/access-rule-types';
import type { StrategyOverrides } from '../plan/strategy-overrides';

/**
 * Per role, the relation fields its access rules make it read by join, as frozen strategy overrides
 * (one object per role): copies whose target the role reads only where a condition the copy cannot show
 * holds (build-access-rules.ts).
 */
export function accessJoinsByRole(rules: AccessRules): ReadonlyMap<string, StrategyOverrides> {
  return new Map([...rules.joinedFor].map(([role, coordinates]) => [role, Object.freeze(new Map([...coordinates].map((coordinate) => [coordinate, 'join' as const])))]));
}

/** The request's overrides with the joins its role must read by, which win over what the request asks. */
export function withAccessJoins(requested: StrategyOverrides, joins: StrategyOverrides | undefined): StrategyOverrides {
  if (!joins) return requested;
  return requested.size === 0 ? joins : new Map([...requested, ...joins]);
}
