import { GraphQLError } from 'graphql';
import type { ContactDetailDocument } from '../documents';
import type { ContactDetailResolvers } from '../generated/resolvers-types';

type ContactDetailTypeName = ReturnType<typeof contactDetailTypeName>;

/** Embedded contact details carry a `kind` discriminator; each kind is one member of the union. */
export function contactDetailTypeName(detail: ContactDetailDocument): 'EmailContact' | 'PhoneContact' | 'SocialContact' {
  switch (detail.kind) {
    case 'email':
      return 'EmailContact';
    case 'phone':
      return 'PhoneContact';
    case 'social':
      return 'SocialContact';
    default: {
      // Stored data the seed never writes (a hand-edited document): a field error, not a crash.
      const unknown: never = detail;
      throw new GraphQLError(`Unknown contact detail kind ${JSON.stringify((unknown as { kind?: unknown }).kind)}`);
    }
  }
}

export const ContactDetail = {
  __resolveType: (detail): ContactDetailTypeName => contactDetailTypeName(detail),
} satisfies ContactDetailResolvers;
