import { isScalarType } from 'graphql';
import { buildGatewaySchema } from '../../../../../src/gateway/startup/schema/build-gateway-schema';
import { directiveTypeDefs } from '../../../../../src/gateway/startup/schema/directive-type-defs';
import { withDirectiveTypeDefs } from '../../../../../src/gateway/startup/schema/schema-sources';
import { dateTimeTypeDefs } from '../../../../../src/gateway/startup/scalars/date-time-scalar';
import { isProvidedScalar } from '../../../../../src/gateway/startup/scalars/provided-scalars';

const TYPES = /* GraphQL */ `
  type Query { events(first: Int = 20, after: ID): [Event!]! @list }
  type Event @collection(name: "events") { id: ID! at: DateTime! }
`;
const DECLARED = /* GraphQL */ `
  "When it happens."
  scalar DateTime
`;

/** Whether the schema built from `typeDefs` serves DateTime with docjoin's scalar. */
function servesDocjoinDateTime(typeDefs: readonly string[]): boolean {
  const type = buildGatewaySchema({ typeDefs, resolvers: {} }).schema.getType('DateTime');
  return isScalarType(type) && isProvidedScalar(type);
}

describe('withDirectiveTypeDefs', () => {
  it('adds the directive definitions, and DateTime when the SDL uses it without defining it', () => {
    expect(withDirectiveTypeDefs(TYPES)).toEqual([directiveTypeDefs, dateTimeTypeDefs, TYPES]);
    expect(dateTimeTypeDefs).toBe('"An ISO-8601 date-time, e.g. `2026-11-21T09:30:00.000Z`."\nscalar DateTime\n');
    expect(servesDocjoinDateTime(withDirectiveTypeDefs(TYPES))).toBe(true);
  });

  it('keeps a DateTime the SDL declares, in any of its files, and binds docjoin’s scalar to it', () => {
    expect(withDirectiveTypeDefs([DECLARED, TYPES])).toEqual([directiveTypeDefs, DECLARED, TYPES]);
    expect(withDirectiveTypeDefs([TYPES, DECLARED])).toEqual([directiveTypeDefs, TYPES, DECLARED]);
    expect(servesDocjoinDateTime(withDirectiveTypeDefs([DECLARED, TYPES]))).toBe(true);
  });

  it('adds DateTime to an SDL that brings its own directive definitions, and nothing to one that does not use it', () => {
    expect(withDirectiveTypeDefs([directiveTypeDefs, TYPES])).toEqual([dateTimeTypeDefs, directiveTypeDefs, TYPES]);
    const withoutDates = TYPES.replace('at: DateTime!', 'at: String!');
    expect(withDirectiveTypeDefs(withoutDates)).toEqual([directiveTypeDefs, withoutDates]);
  });
});
