import { defaultFieldResolver, type GraphQLFieldResolver } from 'graphql';
import { isObjectId } from '../../documents/bson-type';
import { readPath } from '../../documents/read-path';
import type { StoredDocument } from '../../documents/stored-document';
import { readsUnderItsName, type StoredField } from '../../startup/storage-map/storage-map-types';
import type { GatewayContext } from '../context/request-context';

/**
 * Resolver for a field read straight from the document, or undefined when graphql's default resolver
 * (`parent[fieldName]`) already does the job. IDs are served as their 24-hex string; a list's entries
 * are counted toward the response's size (GatewayContext.countResponseList), for graphql-js: docjoin's
 * own execution reads a list under its name itself, and counts it (owned-plan.ts).
 */
export function createStoredFieldResolver(field: StoredField): GraphQLFieldResolver<StoredDocument, GatewayContext> | undefined {
  if (field.isId) {
    return (parent) => {
      const value = readPath(parent, field.path);
      return isObjectId(value) ? value.toHexString() : value;
    };
  }
  // A list is counted toward the response's size before graphql-js completes its entries. One under
  // its name is read as graphql's default resolver reads it (a hand-written root's object may hold a
  // method or a getter).
  if (field.valueType.isList) {
    const underItsName = readsUnderItsName(field);
    return (parent, args, context, info) => {
      const value: unknown = underItsName ? defaultFieldResolver(parent, args, context, info) : readPath(parent, field.path);
      if (Array.isArray(value)) context.countResponseList(info.returnType, value, info.operation.operation);
      return value;
    };
  }
  // graphql's default resolver reads inherited members too (`constructor`, `valueOf`), and calls them.
  if (readsUnderItsName(field)) return undefined;
  return (parent) => readPath(parent, field.path);
}
