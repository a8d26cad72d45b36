import type { GraphQLFieldResolver } from 'graphql';
import { isObjectId } from '../../documents/bson-type';
import { readPath } from '../../documents/read-path';
import type { StoredDocument } from '../../documents/stored-document';
import type { StoredField } from '../../startup/storage-map/storage-map-types';

/**
 * Resolver for a field read straight from the document, or undefined when graphql's default resolver
 * (`parent[fieldName]`) already does the job. IDs are served as their 24-hex string.
 */
export function createStoredFieldResolver(field: StoredField): GraphQLFieldResolver<StoredDocument, unknown> | undefined {
  if (field.isId) {
    return (parent) => {
      const value = readPath(parent, field.path);
      return isObjectId(value) ? value.toHexString() : value;
    };
  }
  // graphql's default resolver reads inherited members too (`constructor`, `valueOf`), and calls them.
  if (field.path === field.fieldName && !(field.fieldName in Object.prototype)) return undefined;
  return (parent) => readPath(parent, field.path);
}
