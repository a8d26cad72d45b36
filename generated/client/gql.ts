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
    "fragment AuthorCard on Author {\n  id\n  name\n  thumbnailUrl\n}": typeof types.AuthorCardFragmentDoc,
    "query AuthorWithBooks($id: ID!) {\n  author(id: $id) {\n    ...AuthorCard\n    firstName\n    lastName\n    countOfBooks\n    books {\n      id\n      name\n      publishedAt\n      publisher {\n        name\n      }\n    }\n  }\n}": typeof types.AuthorWithBooksDocument,
    "query BooksWithAuthors($first: Int = 5) {\n  books(first: $first) {\n    id\n    name\n    isbn\n    pages\n    publishedAt\n    publisher {\n      id\n      name\n      location\n    }\n    authors {\n      ...AuthorCard\n    }\n  }\n}": typeof types.BooksWithAuthorsDocument,
    "query HostLogs($ipaddr: String!, $first: Int = 5, $after: ID) {\n  host(ipaddr: $ipaddr) {\n    id\n    name\n    ipaddr\n    recentLogs {\n      id\n      time\n      message\n    }\n    logs(first: $first, after: $after) {\n      id\n      time\n      message\n      host {\n        name\n      }\n    }\n  }\n}": typeof types.HostLogsDocument,
    "query OpenTasks($id: ID!, $done: Boolean = false) {\n  person(id: $id) {\n    id\n    firstName\n    tasks(done: $done, orderBy: DUE) {\n      id\n      description\n      due\n      done\n    }\n  }\n}": typeof types.OpenTasksDocument,
    "query PersonProfile($id: ID!) {\n  person(id: $id) {\n    id\n    firstName\n    lastName\n    addresses {\n      street\n      city\n      state\n      zip\n      country\n    }\n    contactDetails {\n      __typename\n      ... on EmailContact {\n        email\n      }\n      ... on PhoneContact {\n        phone\n        extension\n      }\n      ... on SocialContact {\n        network\n        handle\n      }\n    }\n    holdings {\n      numberHeld\n      stock {\n        symbol\n        open\n        high\n        low\n      }\n    }\n    tasks {\n      id\n      description\n      due\n      done\n    }\n  }\n}": typeof types.PersonProfileDocument,
    "query PostCommentsPage($id: ID!, $first: Int = 5, $after: String) {\n  post(id: $id) {\n    id\n    title\n    commentsConnection(first: $first, after: $after) {\n      totalCount\n      edges {\n        cursor\n        node {\n          id\n          author\n          comment\n          createdAt\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n}": typeof types.PostCommentsPageDocument,
    "query PostStats($first: Int = 5) {\n  posts(first: $first) {\n    id\n    title\n    commentCount\n    commentsAggregate {\n      count\n      max {\n        createdAt\n      }\n      groupBy(by: [AUTHOR], first: 3, order: COUNT_DESC) {\n        key {\n          author\n        }\n        count\n      }\n    }\n  }\n}": typeof types.PostStatsDocument,
    "query ProductParts($catalogNumber: String!) {\n  product(catalogNumber: $catalogNumber) {\n    id\n    catalogNumber\n    name\n    parts {\n      id\n      name\n      partno\n      qty\n      price\n    }\n  }\n}": typeof types.ProductPartsDocument,
    "query RecentPosts($first: Int = 3) {\n  posts(first: $first) {\n    id\n    title\n    author\n    createdAt\n    commentCount\n    recentComments {\n      id\n      author\n      comment\n      createdAt\n    }\n  }\n}": typeof types.RecentPostsDocument,
    "mutation RenameAuthor($id: ID!, $firstName: String!, $lastName: String!) {\n  renameAuthor(id: $id, firstName: $firstName, lastName: $lastName) {\n    id\n    firstName\n    lastName\n    name\n    countOfBooks\n  }\n}": typeof types.RenameAuthorDocument,
    "query TasksDueBefore($dueBefore: DateTime!, $first: Int = 10) {\n  tasks(dueBefore: $dueBefore, first: $first) {\n    id\n    description\n    due\n    done\n    owner {\n      id\n      firstName\n      lastName\n    }\n  }\n}": typeof types.TasksDueBeforeDocument,
};
const documents: Documents = {
    "fragment AuthorCard on Author {\n  id\n  name\n  thumbnailUrl\n}": types.AuthorCardFragmentDoc,
    "query AuthorWithBooks($id: ID!) {\n  author(id: $id) {\n    ...AuthorCard\n    firstName\n    lastName\n    countOfBooks\n    books {\n      id\n      name\n      publishedAt\n      publisher {\n        name\n      }\n    }\n  }\n}": types.AuthorWithBooksDocument,
    "query BooksWithAuthors($first: Int = 5) {\n  books(first: $first) {\n    id\n    name\n    isbn\n    pages\n    publishedAt\n    publisher {\n      id\n      name\n      location\n    }\n    authors {\n      ...AuthorCard\n    }\n  }\n}": types.BooksWithAuthorsDocument,
    "query HostLogs($ipaddr: String!, $first: Int = 5, $after: ID) {\n  host(ipaddr: $ipaddr) {\n    id\n    name\n    ipaddr\n    recentLogs {\n      id\n      time\n      message\n    }\n    logs(first: $first, after: $after) {\n      id\n      time\n      message\n      host {\n        name\n      }\n    }\n  }\n}": types.HostLogsDocument,
    "query OpenTasks($id: ID!, $done: Boolean = false) {\n  person(id: $id) {\n    id\n    firstName\n    tasks(done: $done, orderBy: DUE) {\n      id\n      description\n      due\n      done\n    }\n  }\n}": types.OpenTasksDocument,
    "query PersonProfile($id: ID!) {\n  person(id: $id) {\n    id\n    firstName\n    lastName\n    addresses {\n      street\n      city\n      state\n      zip\n      country\n    }\n    contactDetails {\n      __typename\n      ... on EmailContact {\n        email\n      }\n      ... on PhoneContact {\n        phone\n        extension\n      }\n      ... on SocialContact {\n        network\n        handle\n      }\n    }\n    holdings {\n      numberHeld\n      stock {\n        symbol\n        open\n        high\n        low\n      }\n    }\n    tasks {\n      id\n      description\n      due\n      done\n    }\n  }\n}": types.PersonProfileDocument,
    "query PostCommentsPage($id: ID!, $first: Int = 5, $after: String) {\n  post(id: $id) {\n    id\n    title\n    commentsConnection(first: $first, after: $after) {\n      totalCount\n      edges {\n        cursor\n        node {\n          id\n          author\n          comment\n          createdAt\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n}": types.PostCommentsPageDocument,
    "query PostStats($first: Int = 5) {\n  posts(first: $first) {\n    id\n    title\n    commentCount\n    commentsAggregate {\n      count\n      max {\n        createdAt\n      }\n      groupBy(by: [AUTHOR], first: 3, order: COUNT_DESC) {\n        key {\n          author\n        }\n        count\n      }\n    }\n  }\n}": types.PostStatsDocument,
    "query ProductParts($catalogNumber: String!) {\n  product(catalogNumber: $catalogNumber) {\n    id\n    catalogNumber\n    name\n    parts {\n      id\n      name\n      partno\n      qty\n      price\n    }\n  }\n}": types.ProductPartsDocument,
    "query RecentPosts($first: Int = 3) {\n  posts(first: $first) {\n    id\n    title\n    author\n    createdAt\n    commentCount\n    recentComments {\n      id\n      author\n      comment\n      createdAt\n    }\n  }\n}": types.RecentPostsDocument,
    "mutation RenameAuthor($id: ID!, $firstName: String!, $lastName: String!) {\n  renameAuthor(id: $id, firstName: $firstName, lastName: $lastName) {\n    id\n    firstName\n    lastName\n    name\n    countOfBooks\n  }\n}": types.RenameAuthorDocument,
    "query TasksDueBefore($dueBefore: DateTime!, $first: Int = 10) {\n  tasks(dueBefore: $dueBefore, first: $first) {\n    id\n    description\n    due\n    done\n    owner {\n      id\n      firstName\n      lastName\n    }\n  }\n}": types.TasksDueBeforeDocument,
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
export function graphql(source: "fragment AuthorCard on Author {\n  id\n  name\n  thumbnailUrl\n}"): (typeof documents)["fragment AuthorCard on Author {\n  id\n  name\n  thumbnailUrl\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query AuthorWithBooks($id: ID!) {\n  author(id: $id) {\n    ...AuthorCard\n    firstName\n    lastName\n    countOfBooks\n    books {\n      id\n      name\n      publishedAt\n      publisher {\n        name\n      }\n    }\n  }\n}"): (typeof documents)["query AuthorWithBooks($id: ID!) {\n  author(id: $id) {\n    ...AuthorCard\n    firstName\n    lastName\n    countOfBooks\n    books {\n      id\n      name\n      publishedAt\n      publisher {\n        name\n      }\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query BooksWithAuthors($first: Int = 5) {\n  books(first: $first) {\n    id\n    name\n    isbn\n    pages\n    publishedAt\n    publisher {\n      id\n      name\n      location\n    }\n    authors {\n      ...AuthorCard\n    }\n  }\n}"): (typeof documents)["query BooksWithAuthors($first: Int = 5) {\n  books(first: $first) {\n    id\n    name\n    isbn\n    pages\n    publishedAt\n    publisher {\n      id\n      name\n      location\n    }\n    authors {\n      ...AuthorCard\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query HostLogs($ipaddr: String!, $first: Int = 5, $after: ID) {\n  host(ipaddr: $ipaddr) {\n    id\n    name\n    ipaddr\n    recentLogs {\n      id\n      time\n      message\n    }\n    logs(first: $first, after: $after) {\n      id\n      time\n      message\n      host {\n        name\n      }\n    }\n  }\n}"): (typeof documents)["query HostLogs($ipaddr: String!, $first: Int = 5, $after: ID) {\n  host(ipaddr: $ipaddr) {\n    id\n    name\n    ipaddr\n    recentLogs {\n      id\n      time\n      message\n    }\n    logs(first: $first, after: $after) {\n      id\n      time\n      message\n      host {\n        name\n      }\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query OpenTasks($id: ID!, $done: Boolean = false) {\n  person(id: $id) {\n    id\n    firstName\n    tasks(done: $done, orderBy: DUE) {\n      id\n      description\n      due\n      done\n    }\n  }\n}"): (typeof documents)["query OpenTasks($id: ID!, $done: Boolean = false) {\n  person(id: $id) {\n    id\n    firstName\n    tasks(done: $done, orderBy: DUE) {\n      id\n      description\n      due\n      done\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query PersonProfile($id: ID!) {\n  person(id: $id) {\n    id\n    firstName\n    lastName\n    addresses {\n      street\n      city\n      state\n      zip\n      country\n    }\n    contactDetails {\n      __typename\n      ... on EmailContact {\n        email\n      }\n      ... on PhoneContact {\n        phone\n        extension\n      }\n      ... on SocialContact {\n        network\n        handle\n      }\n    }\n    holdings {\n      numberHeld\n      stock {\n        symbol\n        open\n        high\n        low\n      }\n    }\n    tasks {\n      id\n      description\n      due\n      done\n    }\n  }\n}"): (typeof documents)["query PersonProfile($id: ID!) {\n  person(id: $id) {\n    id\n    firstName\n    lastName\n    addresses {\n      street\n      city\n      state\n      zip\n      country\n    }\n    contactDetails {\n      __typename\n      ... on EmailContact {\n        email\n      }\n      ... on PhoneContact {\n        phone\n        extension\n      }\n      ... on SocialContact {\n        network\n        handle\n      }\n    }\n    holdings {\n      numberHeld\n      stock {\n        symbol\n        open\n        high\n        low\n      }\n    }\n    tasks {\n      id\n      description\n      due\n      done\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query PostCommentsPage($id: ID!, $first: Int = 5, $after: String) {\n  post(id: $id) {\n    id\n    title\n    commentsConnection(first: $first, after: $after) {\n      totalCount\n      edges {\n        cursor\n        node {\n          id\n          author\n          comment\n          createdAt\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n}"): (typeof documents)["query PostCommentsPage($id: ID!, $first: Int = 5, $after: String) {\n  post(id: $id) {\n    id\n    title\n    commentsConnection(first: $first, after: $after) {\n      totalCount\n      edges {\n        cursor\n        node {\n          id\n          author\n          comment\n          createdAt\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query PostStats($first: Int = 5) {\n  posts(first: $first) {\n    id\n    title\n    commentCount\n    commentsAggregate {\n      count\n      max {\n        createdAt\n      }\n      groupBy(by: [AUTHOR], first: 3, order: COUNT_DESC) {\n        key {\n          author\n        }\n        count\n      }\n    }\n  }\n}"): (typeof documents)["query PostStats($first: Int = 5) {\n  posts(first: $first) {\n    id\n    title\n    commentCount\n    commentsAggregate {\n      count\n      max {\n        createdAt\n      }\n      groupBy(by: [AUTHOR], first: 3, order: COUNT_DESC) {\n        key {\n          author\n        }\n        count\n      }\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ProductParts($catalogNumber: String!) {\n  product(catalogNumber: $catalogNumber) {\n    id\n    catalogNumber\n    name\n    parts {\n      id\n      name\n      partno\n      qty\n      price\n    }\n  }\n}"): (typeof documents)["query ProductParts($catalogNumber: String!) {\n  product(catalogNumber: $catalogNumber) {\n    id\n    catalogNumber\n    name\n    parts {\n      id\n      name\n      partno\n      qty\n      price\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query RecentPosts($first: Int = 3) {\n  posts(first: $first) {\n    id\n    title\n    author\n    createdAt\n    commentCount\n    recentComments {\n      id\n      author\n      comment\n      createdAt\n    }\n  }\n}"): (typeof documents)["query RecentPosts($first: Int = 3) {\n  posts(first: $first) {\n    id\n    title\n    author\n    createdAt\n    commentCount\n    recentComments {\n      id\n      author\n      comment\n      createdAt\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RenameAuthor($id: ID!, $firstName: String!, $lastName: String!) {\n  renameAuthor(id: $id, firstName: $firstName, lastName: $lastName) {\n    id\n    firstName\n    lastName\n    name\n    countOfBooks\n  }\n}"): (typeof documents)["mutation RenameAuthor($id: ID!, $firstName: String!, $lastName: String!) {\n  renameAuthor(id: $id, firstName: $firstName, lastName: $lastName) {\n    id\n    firstName\n    lastName\n    name\n    countOfBooks\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query TasksDueBefore($dueBefore: DateTime!, $first: Int = 10) {\n  tasks(dueBefore: $dueBefore, first: $first) {\n    id\n    description\n    due\n    done\n    owner {\n      id\n      firstName\n      lastName\n    }\n  }\n}"): (typeof documents)["query TasksDueBefore($dueBefore: DateTime!, $first: Int = 10) {\n  tasks(dueBefore: $dueBefore, first: $first) {\n    id\n    description\n    due\n    done\n    owner {\n      id\n      firstName\n      lastName\n    }\n  }\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;