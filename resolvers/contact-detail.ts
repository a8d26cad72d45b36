import { GraphQLError } from 'graphql';

const TYPE_BY_KIND: Readonly<Record<string, string>> = { email: 'EmailContact', phone: 'PhoneContact', social: 'SocialContact' };

/** Embedded contact details carry a `kind` discriminator. */
export const ContactDetail = {
  __resolveType(detail: { kind?: unknown }): string {
    const type = typeof detail.kind === 'string' ? TYPE_BY_KIND[detail.kind] : undefined;
    if (!type) throw new GraphQLError(`Unknown contact detail kind ${JSON.stringify(detail.kind)}`);
    return type;
  },
};
