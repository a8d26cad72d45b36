import type { Document } from 'bson';
import { evaluateLetVariables, parseCollation, type Collation, type QueryScope } from '../../query';
import type { ResolvedView } from '../../storage/view-catalog';
import { namedError } from '../../protocol/command-error';
import { optionalDocument } from './command-fields';

/** What a command (or one write statement) asks for before its target is known. */
export interface RequestedScope {
  /** Whether it names a collation (`{ locale: "simple" }` included); otherwise the target's default applies. */
  readonly hasCollation: boolean;
  readonly collation: Collation | undefined;
  readonly variables: Readonly<Record<string, unknown>> | undefined;
}

/** A command's `let` variables, evaluated once (undefined when it has none). */
export function letVariables(command: Document): Readonly<Record<string, unknown>> | undefined {
  const spec = optionalDocument(command, 'let');
  return spec === undefined || Object.keys(spec).length === 0 ? undefined : evaluateLetVariables(spec);
}

/**
 * Reads the `collation` of `fields` (a command, or one write statement) with MongoDB's errors,
 * before any data is read: a bad collation fails even on a missing collection. `variables`: the
 * command's `let` (default: read from `fields`).
 */
export function requestedScope(fields: Document, variables: Readonly<Record<string, unknown>> | undefined = letVariables(fields)): RequestedScope {
  const hasCollation = fields.collation !== undefined && fields.collation !== null;
  const collation = hasCollation ? parseCollation(fields.collation) : undefined;
  return { hasCollation, collation, variables };
}

/** The scope on a collection: the requested collation, else the collection's default (MongoDB docs: "Collation", "Behavior"). */
export function collectionScope(requested: RequestedScope, defaultCollation: Collation | undefined): QueryScope {
  return scopeOf(requested.hasCollation ? requested.collation : defaultCollation, requested.variables);
}

/**
 * The scope on a view: always the view's default collation. A different requested collation fails
 * with 167 OptionNotSupportedOnView (MongoDB docs: "Views" — operations cannot override it).
 */
export function viewScope(requested: RequestedScope, view: ResolvedView): QueryScope {
  if (requested.hasCollation && !sameCollation(requested.collation, view.collation)) {
    throw namedError('OptionNotSupportedOnView', "Cannot override a view's default collation");
  }
  return scopeOf(view.collation, requested.variables);
}

function sameCollation(a: Collation | undefined, b: Collation | undefined): boolean {
  return a === undefined ? b === undefined : a.equals(b);
}

function scopeOf(collation: Collation | undefined, variables: Readonly<Record<string, unknown>> | undefined): QueryScope {
  if (collation === undefined) return variables === undefined ? {} : { variables };
  return variables === undefined ? { collation } : { collation, variables };
}
