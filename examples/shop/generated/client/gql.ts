/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "query Catalogue($first: Int = 20, $category: ID) {\n  products(first: $first, category: $category) {\n    id\n    name\n    price\n    category {\n      name\n    }\n    reviewCount\n    recentReviews {\n      rating\n      text\n    }\n  }\n}\n\nquery MyAccount {\n  customers(first: 1) {\n    id\n    name\n    email\n    tier\n    orderCount\n  }\n}\n\nquery MyOrders($first: Int = 20, $after: ID) {\n  orders(first: $first, after: $after) {\n    id\n    status\n    placedAt\n    total\n    lines {\n      quantity\n      product {\n        name\n        price\n      }\n    }\n  }\n}\n\nmutation PlaceOrder($lines: [PlaceOrderLine!]!) {\n  placeOrder(lines: $lines) {\n    id\n    total\n  }\n}\n\nmutation RenameMe($id: ID!, $name: String!) {\n  updateCustomer(id: $id, input: {name: $name}) {\n    id\n    name\n  }\n}\n\nquery ProductRatings($first: Int = 20) {\n  products(first: $first) {\n    id\n    name\n    reviewsAggregate {\n      count\n      avg {\n        rating\n      }\n    }\n  }\n}": typeof types.CatalogueDocument,
};
const documents: Documents = {
    "query Catalogue($first: Int = 20, $category: ID) {\n  products(first: $first, category: $category) {\n    id\n    name\n    price\n    category {\n      name\n    }\n    reviewCount\n    recentReviews {\n      rating\n      text\n    }\n  }\n}\n\nquery MyAccount {\n  customers(first: 1) {\n    id\n    name\n    email\n    tier\n    orderCount\n  }\n}\n\nquery MyOrders($first: Int = 20, $after: ID) {\n  orders(first: $first, after: $after) {\n    id\n    status\n    placedAt\n    total\n    lines {\n      quantity\n      product {\n        name\n        price\n      }\n    }\n  }\n}\n\nmutation PlaceOrder($lines: [PlaceOrderLine!]!) {\n  placeOrder(lines: $lines) {\n    id\n    total\n  }\n}\n\nmutation RenameMe($id: ID!, $name: String!) {\n  updateCustomer(id: $id, input: {name: $name}) {\n    id\n    name\n  }\n}\n\nquery ProductRatings($first: Int = 20) {\n  products(first: $first) {\n    id\n    name\n    reviewsAggregate {\n      count\n      avg {\n        rating\n      }\n    }\n  }\n}": types.CatalogueDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Catalogue($first: Int = 20, $category: ID) {\n  products(first: $first, category: $category) {\n    id\n    name\n    price\n    category {\n      name\n    }\n    reviewCount\n    recentReviews {\n      rating\n      text\n    }\n  }\n}\n\nquery MyAccount {\n  customers(first: 1) {\n    id\n    name\n    email\n    tier\n    orderCount\n  }\n}\n\nquery MyOrders($first: Int = 20, $after: ID) {\n  orders(first: $first, after: $after) {\n    id\n    status\n    placedAt\n    total\n    lines {\n      quantity\n      product {\n        name\n        price\n      }\n    }\n  }\n}\n\nmutation PlaceOrder($lines: [PlaceOrderLine!]!) {\n  placeOrder(lines: $lines) {\n    id\n    total\n  }\n}\n\nmutation RenameMe($id: ID!, $name: String!) {\n  updateCustomer(id: $id, input: {name: $name}) {\n    id\n    name\n  }\n}\n\nquery ProductRatings($first: Int = 20) {\n  products(first: $first) {\n    id\n    name\n    reviewsAggregate {\n      count\n      avg {\n        rating\n      }\n    }\n  }\n}"): (typeof documents)["query Catalogue($first: Int = 20, $category: ID) {\n  products(first: $first, category: $category) {\n    id\n    name\n    price\n    category {\n      name\n    }\n    reviewCount\n    recentReviews {\n      rating\n      text\n    }\n  }\n}\n\nquery MyAccount {\n  customers(first: 1) {\n    id\n    name\n    email\n    tier\n    orderCount\n  }\n}\n\nquery MyOrders($first: Int = 20, $after: ID) {\n  orders(first: $first, after: $after) {\n    id\n    status\n    placedAt\n    total\n    lines {\n      quantity\n      product {\n        name\n        price\n      }\n    }\n  }\n}\n\nmutation PlaceOrder($lines: [PlaceOrderLine!]!) {\n  placeOrder(lines: $lines) {\n    id\n    total\n  }\n}\n\nmutation RenameMe($id: ID!, $name: String!) {\n  updateCustomer(id: $id, input: {name: $name}) {\n    id\n    name\n  }\n}\n\nquery ProductRatings($first: Int = 20) {\n  products(first: $first) {\n    id\n    name\n    reviewsAggregate {\n      count\n      avg {\n        rating\n      }\n    }\n  }\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;