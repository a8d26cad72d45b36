import { describeValueType, type AccessRules, type ScalarValueType } from '../../startup/access-rules/access-rule-types';
import type { Viewer } from '../authentication/authenticate';
import { NO_CLAIM, storedClaim } from './stored-claim';

/** The fields a role's conditions compare with one claim, and whether they are stored as ObjectIds or values of one type. */
interface ClaimUse {
  readonly claim: string;
  readonly fields: Set<string>;
  readonly objectId: boolean;
  readonly valueType: ScalarValueType | undefined;
}

/**
 * A check of each viewer's claims against the access rules that compare them: a claim that cannot be
 * the stored value (no 24-hex string for a field stored as an ObjectId, as when an identity provider's
 * `sub` is `auth0|…`; a list or an object for any field) matches no document. That keeps the data safe
 * but says nothing, so the first such claim per role, claim and kind of field is reported through `warn`
 * (its value is not: it identifies a person). Undefined when no rule compares a claim.
 */
export function claimShapeCheck(rules: AccessRules, warn: (message: string) => void): ((viewer: Viewer) => void) | undefined {
  const usesByRole = new Map<string, Map<string, ClaimUse>>();
  for (const type of rules.types.values()) {
    for (const [role, roleRules] of type.roles) {
      for (const rule of [roleRules.read, roleRules.create, roleRules.update, roleRules.delete]) {
        for (const condition of rule?.where ?? []) {
          if (!('claim' in condition.equals)) continue;
          const uses = usesByRole.get(role) ?? new Map<string, ClaimUse>();
          usesByRole.set(role, uses);
          const { objectId, valueType } = condition;
          const key = `${condition.equals.claim}\u0000${objectId}\u0000${valueType === undefined ? '' : describeValueType(valueType)}`;
          const use = uses.get(key) ?? { claim: condition.equals.claim, fields: new Set<string>(), objectId, valueType };
          uses.set(key, use);
          use.fields.add(`${type.typeName}.${condition.fieldName}`);
        }
      }
    }
  }
  if (usesByRole.size === 0) return undefined;
  const reported = new Set<string>();
  return (viewer) => {
    const uses = usesByRole.get(viewer.role);
    if (uses === undefined || viewer.anonymous) return;
    for (const [key, use] of uses) {
      const value = viewer.claims[use.claim];
      if (value === undefined || storedClaim(value, use) !== NO_CLAIM || reported.has(`${viewer.role}\u0000${key}`)) continue;
      reported.add(`${viewer.role}\u0000${key}`);
      warn(describeUnfitClaim(viewer.role, value, use));
    }
  };
}

function describeUnfitClaim(role: string, value: unknown, { claim, fields: compared, objectId, valueType }: ClaimUse): string {
  const held = typeof value === 'string' && objectId ? 'a string that is not 24 hex digits' : `a ${Array.isArray(value) ? 'list' : value === null ? 'null' : typeof value}`;
  const fields = [...compared].join(', ');
  const wanted = valueType === undefined ? 'a string, a number or a boolean' : describeValueType(valueType);
  const fix = objectId ? `issue tokens whose ${claim} is the 24-hex id, or declare those fields String and store the claim's values` : `issue tokens whose ${claim} is ${wanted}`;
  const storedAs = objectId ? 'ObjectIds' : valueType === undefined ? 'stored values' : `stored values, each ${wanted}`;
  return (
    `a token of role ${role} holds ${held} as its claim ${claim}, which the access rules compare with ${storedAs} (${fields}): ` +
    `those rules match no document for it, so it reads and changes nothing there; ${fix} (reported once per role and claim)`
  );
}
