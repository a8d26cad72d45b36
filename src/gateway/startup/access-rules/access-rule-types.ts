import { ObjectId } from 'bson';
import { keyString } from '../../documents/key-string';
import type { RelationField } from '../storage-map/storage-map-types';
import type { InverseRule } from '../write-model/write-model-types';

/**
 * The access rules: per type and role, what `@access` allows. Built once at startup from the directives
 * (build-access-rules.ts), checked against every path the data can take, then only read.
 */

export type AccessAction = 'read' | 'create' | 'update' | 'delete';

/** A row condition: the document's value at `path` equals the viewer's claim `claim`, or the rule's constant. */
export interface RowCondition {
  /** The type's field the rule names (`customer`, `id`). */
  readonly fieldName: string;
  /** Where the document keeps it: `_id`, `customer.id` (a reference's key), `tenant`. */
  readonly path: string;
  readonly equals: ClaimValue | ConstantValue;
  /** The stored value is an ObjectId (`_id`, a reference, an `ID` field): the claim is its hex string (a constant is one already). */
  readonly objectId: boolean;
  /** What a claim must be to be one of the field's values (not an ObjectId); absent for an enum, whose resolvers may store other values, and a scalar of your own, which docjoin cannot judge. */
  readonly valueType?: ScalarValueType;
  /** Refused at startup (its problem says why), kept by its name so the checks see a rule: none compares anything with it. */
  readonly refused?: true;
}

/** The JSON values a field's GraphQL type takes: a string, a 32-bit integer (Int), a safe integer (Long), a number, a boolean, or an enum's value names. */
export type ScalarValueType = 'string' | 'int32' | 'integer' | 'number' | 'boolean' | { readonly enumValues: readonly string[] };

/** Whether `value` is one of `type`'s. */
export function isValueOfType(value: unknown, type: ScalarValueType): boolean {
  if (typeof type === 'object') return typeof value === 'string' && type.enumValues.includes(value);
  if (type === 'int32') return Number.isInteger(value) && (value as number) >= -(2 ** 31) && (value as number) < 2 ** 31;
  return type === 'integer' ? Number.isSafeInteger(value) : typeof value === type;
}

/** `type` as a message names it: "a string", "one of DRAFT, LIVE". */
export function describeValueType(type: ScalarValueType): string {
  if (typeof type === 'object') return `one of ${type.enumValues.join(', ')}`;
  if (type === 'int32') return 'a 32-bit integer';
  return type === 'integer' ? 'an integer' : `a ${type}`;
}

/** The value of the viewer's claim of this name. */
export interface ClaimValue {
  readonly claim: string;
}

/** A value the rule gives: the same for every viewer. */
export interface ConstantValue {
  readonly constant: string | number | boolean | ObjectId;
}

/** Whether two conditions compare their paths with the same value (the same claim, or equal constants). */
export function sameValue(a: RowCondition, b: RowCondition): boolean {
  if ('claim' in a.equals || 'claim' in b.equals) return 'claim' in a.equals && 'claim' in b.equals && a.equals.claim === b.equals.claim;
  return keyString(a.equals.constant) === keyString(b.equals.constant);
}

/** A condition as explain and the startup messages name it: `owner = claim sub`, `published = true`. */
export function describeCondition(condition: RowCondition): string {
  return `${condition.fieldName} = ${describeEquals(condition)}`;
}

/** What a condition's field must equal: `claim sub`, `true`, `ObjectId("…")`. */
export function describeEquals(condition: RowCondition): string {
  const { equals } = condition;
  if ('claim' in equals) return `claim ${equals.claim}`;
  return equals.constant instanceof ObjectId ? `ObjectId("${equals.constant.toHexString()}")` : JSON.stringify(equals.constant);
}

export interface ActionRule {
  /** Every condition must hold; none: every row. */
  readonly where: readonly RowCondition[];
  /** A write's Mutation fields that may do it (by name); empty: any. */
  readonly via: ReadonlySet<string>;
}

export interface ReadRule extends ActionRule {
  /** Fields the role may not select, filter or sort by. */
  readonly hidden: ReadonlySet<string>;
}

export interface UpdateRule extends ActionRule {
  /**
   * The stored paths of the fields the role's updates may not set (`readOnly`, and the `where` fields,
   * which are never settable): a change at one of them, inside one, or holding one is refused.
   */
  readonly readOnlyPaths: readonly string[];
}

export interface RoleRules {
  readonly read?: ReadRule;
  readonly create?: ActionRule;
  readonly update?: UpdateRule;
  readonly delete?: ActionRule;
}

export interface TypeAccess {
  readonly typeName: string;
  readonly collection: string | undefined;
  /** By role; a role absent may do nothing with the type (a type without a collection: nothing but read it). */
  readonly roles: ReadonlyMap<string, RoleRules>;
}

export interface AccessRules {
  /** Whether any type has a rule. Without one, docjoin serves everyone everything, as before rules existed. */
  readonly enabled: boolean;
  /** The types with rules, by name. */
  readonly types: ReadonlyMap<string, TypeAccess>;
  /** The types whose documents each collection holds (by `@collection`, or a join's `collection:`), for the reads the funnel scopes. */
  readonly typeOfCollection: ReadonlyMap<string, string>;
  /** The names of the `@collection` types. */
  readonly collectionTypes: ReadonlySet<string>;
  /** Every role a rule names. */
  readonly roles: ReadonlySet<string>;
  /**
   * Per role, the relation fields it reads by join whatever their default: copies (a snapshot, an
   * embedded array) whose target the role reads only where a condition holds that the copy cannot show.
   */
  readonly joinedFor: ReadonlyMap<string, ReadonlySet<string>>;
  /** Per role, the collections whose documents hold those copies (their owners', through embedded types too). */
  readonly joinedIn: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * Per role, the collections holding a copy (a snapshot, an embedded array of copies) that the role's
   * rules hide: how many of their rows a write's fan-out changed is what a filter by the copy would find.
   */
  readonly copiesHiddenIn: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * The `@inverse` relations, by coordinate (`Person.tasks`), with the reference each mirrors: its list
   * shows that reference's value on every row it names, as a reverse join by it would.
   */
  readonly inverses: ReadonlyMap<string, MirroredReference>;
}

/** The reference an `@inverse` relation mirrors: `Task.owner`, kept on Task at `truthPath`. */
export type MirroredReference = Pick<InverseRule, 'of' | 'truthType' | 'truthPath'>;

/**
 * What `role` may read of `typeName`: its rule, everything, or nothing. A type without a collection (an
 * embedded one) is read by whoever reads the document holding it: its rules only hide fields from the
 * roles they name. A `@collection` type is read only by the roles its rules allow.
 */
export function readRuleOf(rules: AccessRules, typeName: string, role: string): ReadRule | 'all' | undefined {
  const rule = rules.types.get(typeName)?.roles.get(role)?.read;
  if (rule !== undefined) return rule;
  return rules.collectionTypes.has(typeName) ? undefined : 'all';
}

/**
 * The collections some role reads only where its conditions hold: a write unit reads a reference into
 * one through the viewer's filter instead of letting its derived update prove the target exists.
 */
export function collectionsReadInPart(rules: AccessRules): ReadonlySet<string> {
  const partly = new Set<string>();
  for (const type of rules.types.values()) {
    if (type.collection !== undefined && [...type.roles.values()].some((role) => role.read !== undefined && role.read.where.length > 0)) partly.add(type.collection);
  }
  return partly;
}

/**
 * The by-key references (`Type.field`) whose key a create may set from a claim when the input leaves it
 * out (its rule's `where`, and for a generated create its READ rule's): a create reads such a reference
 * (to check it and fill its snapshot) though its input names none.
 */
export function presetReferences(rules: AccessRules, relations: Iterable<RelationField>): ReadonlySet<string> {
  const paths = new Set<string>();
  for (const type of rules.types.values()) {
    for (const role of type.roles.values()) {
      if (!role.create) continue;
      for (const condition of [...role.create.where, ...(role.read?.where ?? [])]) paths.add(`${type.typeName}\0${condition.path}`);
    }
  }
  const coordinates = new Set<string>();
  for (const relation of relations) {
    const join = relation.shapes.join;
    if (join?.direction === 'byKey' && paths.has(`${relation.typeName}\0${join.localField}`)) coordinates.add(relation.coordinate);
  }
  return coordinates;
}
