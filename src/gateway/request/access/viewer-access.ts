import { holdsKeyAt, keyString } from '../../documents/key-string';
import type { StoredDocument } from '../../documents/stored-document';
import { forbidden } from '../../errors/public-error-code';
import { readRuleOf, type AccessRules, type ActionRule, type RowCondition, type UpdateRule } from '../../startup/access-rules/access-rule-types';
import type { Viewer } from '../authentication/authenticate';
import type { ReadScope } from './scope-read-command';
import { NO_CLAIM, storedClaim } from './stored-claim';

/** A claim the viewer lacks, or one that cannot be the stored value: the condition matches no document. */
const NO_MATCH: StoredDocument = Object.freeze({ _id: Object.freeze({ $in: Object.freeze([]) }) });
const NO_HIDDEN: ReadonlySet<string> = new Set();

/**
 * One request's viewer under the access rules: what its role may read and write, and the MongoDB
 * filters its claims make of the rules' conditions (worked out once per collection per request).
 */
export class ViewerAccess implements ReadScope {
  readonly #filters = new Map<string, StoredDocument | null>();
  #seesReplyBytes: boolean | undefined;
  #filtersAnyRow: boolean | undefined;

  constructor(
    readonly rules: AccessRules,
    readonly viewer: Viewer,
  ) {}

  get role(): string {
    return this.viewer.role;
  }

  canRead(typeName: string): boolean {
    return readRuleOf(this.rules, typeName, this.viewer.role) !== undefined;
  }

  /** The fields of `typeName` the role may not select, filter or sort by. */
  hidden(typeName: string): ReadonlySet<string> {
    const rule = readRuleOf(this.rules, typeName, this.viewer.role);
    return rule === undefined || rule === 'all' ? NO_HIDDEN : rule.hidden;
  }

  /** Whether the role reads every row of `collection` (without conditions): the data's measures of it may be shown to it. */
  readsEveryRow(collection: string): boolean {
    const typeName = this.rules.typeOfCollection.get(collection);
    const rule = typeName === undefined ? undefined : readRuleOf(this.rules, typeName, this.viewer.role);
    return rule === 'all' || (rule !== undefined && rule.where.length === 0);
  }

  /**
   * Whether the documents a write changes in `collection` may be counted to the role: it reads every
   * row there (a collection no type is read from counts too), and none of the copies those rows hold is
   * one it reads by join to filter (a patient's `Doctor.recentAppointments`): how many rows hold a copy
   * of what the write changed tells of the rows beside it, which the role cannot see. Nor does the role's
   * rule hide a copy there: the rows holding a copy of what changed are those a filter by the copy
   * (`Comment.post`, hidden) would find.
   */
  seesWriteCountsIn(collection: string): boolean {
    if (!this.rules.typeOfCollection.has(collection)) return true;
    const role = this.viewer.role;
    return this.readsEveryRow(collection) && !this.rules.joinedIn.get(role)?.has(collection) && !this.rules.copiesHiddenIn.get(role)?.has(collection);
  }

  /**
   * Whether the viewer may be shown the size of MongoDB's replies: only when its role reads every row
   * of every type and hides no field. Otherwise a reply may carry what the gateway then leaves out (a
   * snapshot copy of a row it may not read, checked after the read; a copied field it hides; a row a
   * write unit read to keep copies true), whose size the bytes would tell.
   */
  seesReplyBytes(): boolean {
    return (this.#seesReplyBytes ??= !this.filtersAnyRow() && [...this.rules.types.values()].every((type) => (type.roles.get(this.viewer.role)?.read?.hidden.size ?? 0) === 0));
  }

  /** Whether the role reads some type only where conditions hold (or not at all): what the data's measures must not be shown to. */
  filtersAnyRow(): boolean {
    return (this.#filtersAnyRow ??= [...this.rules.collectionTypes].some((typeName) => {
      const rule = readRuleOf(this.rules, typeName, this.viewer.role);
      return rule === undefined || (rule !== 'all' && rule.where.length > 0);
    }));
  }

  /** A read of `typeName` refused: the role has no READ rule for it. */
  refuseRead(typeName: string): Error {
    return forbidden(`role "${this.viewer.role}" may not read ${typeName}`);
  }

  /**
   * The filter a read of `collection` must add (ReadScope); undefined when the role reads every row.
   * Throws FORBIDDEN when the role may not read the collection's type at all.
   */
  filterFor(collection: string): StoredDocument | undefined {
    let filter = this.#filters.get(collection);
    if (filter === undefined) {
      const typeName = this.rules.typeOfCollection.get(collection);
      // A collection no type (nor join) names holds nothing the rules describe: refused, not read in full.
      const rule = typeName === undefined ? undefined : readRuleOf(this.rules, typeName, this.viewer.role);
      filter = rule === undefined ? null : rule === 'all' || rule.where.length === 0 ? EVERY_ROW : this.whereFilter(rule.where);
      this.#filters.set(collection, filter);
    }
    if (filter === null) throw this.refuseRead(this.rules.typeOfCollection.get(collection) ?? collection);
    return filter === EVERY_ROW ? undefined : filter;
  }

  /** The role's READ conditions on `typeName`, for a copy to be checked against; empty when it reads every row. */
  readConditions(typeName: string): readonly RowCondition[] {
    const rule = readRuleOf(this.rules, typeName, this.viewer.role);
    return rule === undefined || rule === 'all' ? [] : rule.where;
  }

  /** Whether a snapshot copy (GraphQL field names, its target's id at `keyField`) meets the role's READ conditions on `typeName`. */
  copyVisible(typeName: string, copy: Readonly<Record<string, unknown>>, keyField: string): boolean {
    return this.readConditions(typeName).every((condition) => this.#holdsClaim(condition, copy, condition.fieldName === 'id' ? keyField : condition.fieldName));
  }

  /** Whether a stored document of `collection` (one a write returned) is a row the role may read. */
  documentVisible(collection: string, document: StoredDocument): boolean {
    const typeName = this.rules.typeOfCollection.get(collection);
    const rule = typeName === undefined ? undefined : readRuleOf(this.rules, typeName, this.viewer.role);
    if (rule === undefined) return false;
    if (rule === 'all') return true;
    return rule.where.every((condition) => this.#holdsClaim(condition, document, condition.path));
  }

  /** Whether `document` holds at `path` the value the viewer's claim gives `condition`, as the rule's filter matches in MongoDB (an array holding it matches). */
  #holdsClaim(condition: RowCondition, document: unknown, path: string): boolean {
    const expected = this.claimValue(condition);
    return expected !== NO_CLAIM && holdsKeyAt(document, path, expected);
  }

  /** The role's rule for a write on `typeName` by the Mutation field `mutationField`, or FORBIDDEN. */
  writeRule(typeName: string, action: 'create' | 'delete', mutationField: string): ActionRule;
  writeRule(typeName: string, action: 'update', mutationField: string): UpdateRule;
  writeRule(typeName: string, action: 'create' | 'update' | 'delete', mutationField: string): ActionRule | UpdateRule {
    const rule = this.rules.types.get(typeName)?.roles.get(this.viewer.role)?.[action];
    if (!rule) throw forbidden(`role "${this.viewer.role}" may not ${action} ${typeName}`);
    if (rule.via.size > 0 && !rule.via.has(mutationField)) throw forbidden(`role "${this.viewer.role}" may ${action} ${typeName} only through ${[...rule.via].join(', ')}`);
    return rule;
  }

  /** The MongoDB filter of `where` for this viewer's claims. */
  whereFilter(where: readonly RowCondition[]): StoredDocument {
    const filter: StoredDocument = {};
    for (const condition of where) {
      const value = this.claimValue(condition);
      if (value === NO_CLAIM) return NO_MATCH;
      if (filter[condition.path] !== undefined && keyString(filter[condition.path]) !== keyString(value)) return NO_MATCH;
      filter[condition.path] = value;
    }
    return filter;
  }

  /** The stored value a condition stands for: its constant, or its claim's value, NO_CLAIM when the viewer has none that could match. */
  claimValue(condition: RowCondition): unknown {
    if (!('claim' in condition.equals)) return condition.equals.constant;
    return storedClaim(this.viewer.claims[condition.equals.claim], condition);
  }
}

/** Memo of a collection the role reads all of (null is "may not read"). */
const EVERY_ROW: StoredDocument = Object.freeze({});

