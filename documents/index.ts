/**
 * The parent values resolvers receive for each GraphQL object type: MongoDB documents as stored (the seed
 * defines the shapes), not GraphQL objects. codegen.yml's `mappers` point at these names.
 *
 * A document arrives projected to what the selection needs and a snapshot copy arrives as a partial
 * document, so a field resolver may only rely on the paths its own field reads (which are always fetched).
 */
import type { ContactDetailDoc } from '../seed/demo-documents';

export type {
  AddressDoc as AddressDocument,
  AuthorDoc as AuthorDocument,
  BookDoc as BookDocument,
  CommentDoc as CommentDocument,
  HoldingDoc as HoldingDocument,
  HostDoc as HostDocument,
  LogMessageDoc as LogMessageDocument,
  PartDoc as PartDocument,
  PersonDoc as PersonDocument,
  PostDoc as PostDocument,
  ProductDoc as ProductDocument,
  PublisherDoc as PublisherDocument,
  StockDoc as StockDocument,
  TaskDoc as TaskDocument,
} from '../seed/demo-documents';

/** Embedded `contactDetails` entries, told apart by their `kind` discriminator. */
export type ContactDetailDocument = ContactDetailDoc;
export type EmailContactDocument = Extract<ContactDetailDoc, { kind: 'email' }>;
export type PhoneContactDocument = Extract<ContactDetailDoc, { kind: 'phone' }>;
export type SocialContactDocument = Extract<ContactDetailDoc, { kind: 'social' }>;
