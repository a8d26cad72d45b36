import { Kind } from 'graphql';
import { DateTimeScalar } from 'docjoin';
import { objectIdArgument } from 'docjoin';
import { ContactDetail, contactDetailTypeName } from '../../../resolvers/contact-detail';
import type { ContactDetailDocument } from '../../../documents';
import { codeOf } from '../../support/graphql-error-code';

describe('DateTime', () => {
  it('serializes Dates as ISO strings and parses ISO strings to Dates', () => {
    expect(DateTimeScalar.serialize(new Date('2026-11-21T09:30:00Z'))).toBe('2026-11-21T09:30:00.000Z');
    expect(DateTimeScalar.parseValue('2026-11-21T09:30:00.000Z')).toEqual(new Date('2026-11-21T09:30:00.000Z'));
    expect(DateTimeScalar.parseLiteral({ kind: Kind.STRING, value: '2026-11-21' }, {})).toEqual(new Date('2026-11-21T00:00:00.000Z'));
  });
  it('rejects anything else as BAD_USER_INPUT', () => {
    expect(codeOf(() => DateTimeScalar.parseValue('yesterday'))).toEqual(['BAD_USER_INPUT', 'DateTime must be an ISO-8601 string like 2026-11-21T09:30:00.000Z, got "yesterday"']);
    expect(codeOf(() => DateTimeScalar.parseValue(1700000000000))).toEqual(['BAD_USER_INPUT', 'DateTime must be an ISO-8601 string like 2026-11-21T09:30:00.000Z, got 1700000000000']);
    expect(codeOf(() => DateTimeScalar.parseLiteral({ kind: Kind.INT, value: '5' }, {}))).toEqual(['BAD_USER_INPUT', 'DateTime must be an ISO-8601 string, got 5']);
  });
});

describe('objectIdArgument', () => {
  it('accepts 24 hex digits and names a bad value', () => {
    expect(objectIdArgument('65A000000000000000000001').toHexString()).toBe('65a000000000000000000001');
    expect(codeOf(() => objectIdArgument('nope'))).toEqual(['BAD_USER_INPUT', 'id must be a 24-character hexadecimal ObjectId, got "nope"']);
    expect(codeOf(() => objectIdArgument('{"$ne":null}'))).toEqual(['BAD_USER_INPUT', 'id must be a 24-character hexadecimal ObjectId, got "{\\"$ne\\":null}"']);
  });
});

describe('ContactDetail', () => {
  it('resolves the member type by kind', () => {
    expect(ContactDetail.__resolveType({ kind: 'email', email: 'ada@example.com' })).toBe('EmailContact');
    expect(ContactDetail.__resolveType({ kind: 'phone', phone: '+1 555 0100' })).toBe('PhoneContact');
    expect(ContactDetail.__resolveType({ kind: 'social', network: 'mastodon', handle: '@ada' })).toBe('SocialContact');
  });

  it('fails the field, naming the kind, for a stored kind the schema does not know', () => {
    const handEdited = { kind: 'fax', number: '1' } as unknown as ContactDetailDocument;
    expect(codeOf(() => contactDetailTypeName(handEdited))).toEqual([undefined, 'Unknown contact detail kind "fax"']);
  });
});
