import type { ObjectId } from 'bson';

/** The MongoDB document shapes of the demo domain (the storage side of schema/domain.graphql). */

export interface AddressDoc {
  street: string;
  city: string;
  state: string | null;
  zip: string;
  country: string;
}

export type ContactDetailDoc =
  | { kind: 'email'; email: string }
  | { kind: 'phone'; phone: string; extension?: string }
  | { kind: 'social'; network: string; handle: string };

export interface HoldingDoc {
  stockId: ObjectId;
  numberHeld: number;
}

export interface PersonDoc {
  _id: ObjectId;
  firstName: string;
  lastName: string;
  addresses: AddressDoc[];
  contactDetails: ContactDetailDoc[];
  holdings: HoldingDoc[];
  taskIds: ObjectId[];
}

export interface StockDoc {
  _id: ObjectId;
  symbol: string;
  open: number;
  high: number;
  low: number;
  vol: number;
  mktCap: number;
  pe: number;
}

export interface TaskDoc {
  _id: ObjectId;
  description: string;
  due: Date;
  done: boolean;
  ownerId: ObjectId;
}

export interface CommentDoc {
  _id: ObjectId;
  postId: ObjectId;
  author: string;
  comment: string;
  createdAt: Date;
}

export interface PostDoc {
  _id: ObjectId;
  title: string;
  body: string;
  author: string;
  createdAt: Date;
  commentCount: number;
  /** The post's newest comments, newest first, at most RECENT_COMMENTS_LIMIT. */
  recentComments: CommentDoc[];
}

export interface PublisherDoc {
  _id: ObjectId;
  name: string;
  location: string;
}

export interface AuthorSnapshot {
  id: ObjectId;
  name: string;
  thumbnailUrl: string;
}

export interface BookDoc {
  _id: ObjectId;
  name: string;
  isbn: string;
  pages: number;
  publishedAt: Date;
  publisherId: ObjectId;
  authors: AuthorSnapshot[];
}

export interface AuthorDoc {
  _id: ObjectId;
  firstName: string;
  lastName: string;
  name: string;
  thumbnailUrl: string;
  countOfBooks: number;
  bookIds: ObjectId[];
}

export interface PartSnapshot {
  id: ObjectId;
  name: string;
}

export interface ProductDoc {
  _id: ObjectId;
  catalogNumber: string;
  name: string;
  parts: PartSnapshot[];
}

export interface PartDoc {
  _id: ObjectId;
  partno: string;
  name: string;
  qty: number;
  cost: number;
  price: number;
}

export interface HostSnapshot {
  id: ObjectId;
  name: string;
  ipaddr: string;
}

export interface LogMessageDoc {
  _id: ObjectId;
  time: Date;
  message: string;
  host: HostSnapshot;
}

export interface HostDoc {
  _id: ObjectId;
  name: string;
  ipaddr: string;
  /** The host's newest log messages, newest first, at most RECENT_LOGS_LIMIT. */
  recentLogs: LogMessageDoc[];
}

/** Every demo collection, in the order the seed inserts them. */
export const DEMO_COLLECTIONS = [
  'people',
  'stocks',
  'tasks',
  'posts',
  'comments',
  'publishers',
  'books',
  'authors',
  'products',
  'parts',
  'hosts',
  'logMessages',
] as const;

export type DemoCollectionName = (typeof DEMO_COLLECTIONS)[number];

export interface DemoData {
  people: PersonDoc[];
  stocks: StockDoc[];
  tasks: TaskDoc[];
  posts: PostDoc[];
  comments: CommentDoc[];
  publishers: PublisherDoc[];
  books: BookDoc[];
  authors: AuthorDoc[];
  products: ProductDoc[];
  parts: PartDoc[];
  hosts: HostDoc[];
  logMessages: LogMessageDoc[];
}

// Compile-time check that DemoData has exactly one entry per demo collection.
type ExactKeys<A, B> = [keyof A] extends [B] ? ([B] extends [keyof A] ? true : never) : never;
const demoDataCoversCollections: ExactKeys<DemoData, DemoCollectionName> = true;
void demoDataCoversCollections;
