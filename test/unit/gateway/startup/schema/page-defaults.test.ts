import { printSchema } from 'graphql';
import { buildGatewaySchema } from '../../../../../src/gateway/startup/schema/build-gateway-schema';
import { withDirectiveTypeDefs } from '../../../../../src/gateway/startup/schema/schema-sources';

/** What an omitted `first` reads is in the schema clients see, whatever the SDL wrote. */
describe('the default of first in the public schema', () => {
  const sdl = /* GraphQL */ `
    type Query {
      orders(first: Int, after: ID): [Order!]! @list
      recent("Newest first." first: Int = 5): [Order!]! @list
      search(first: Int): [Order!]!
    }
    type Order @collection(name: "orders") {
      id: ID!
      lines(first: Int): [Line!]! @embedded
      notes(first: Int): [String!]!
      placedAt: String!
      customerId: ID!
    }
    type Line { sku: String! }
    type Customer @collection(name: "customers") {
      id: ID!
      lastOrders(first: Int): [Order!]! @join(localField: "_id", foreignField: "customerId", sort: "-placedAt", limit: 3)
      lastOrder(first: Int): [Order!]! @join(localField: "_id", foreignField: "customerId", sort: "-placedAt", limit: 1)
    }
  `;
  const { schema } = buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl), resolvers: { Query: { search: () => [] }, Order: { notes: () => [] } } });
  const firstArgument = (typeName: string, fieldName: string) => {
    const type = schema.getType(typeName) as { getFields(): Record<string, { args: ReadonlyArray<{ name: string; defaultValue: unknown; description?: string | null }> }> };
    return type.getFields()[fieldName]!.args.find((argument) => argument.name === 'first')!;
  };
  const firstOf = (typeName: string, fieldName: string) => firstArgument(typeName, fieldName).defaultValue;

  it('writes 20 where docjoin pages a list the SDL gave no default, keeps a default it gave, and leaves hand-written fields alone', () => {
    expect([firstOf('Query', 'orders'), firstOf('Order', 'lines'), firstOf('Query', 'recent'), firstOf('Query', 'search'), firstOf('Order', 'notes')]).toEqual([20, 20, 5, undefined, undefined]);
    expect(printSchema(schema)).toMatch(/lines\(\s*"""[^"]*"""\s*first: Int = 20\s*\): \[Line!\]!/);
  });

  it('says the bounds of first where the SDL gave it no description, keeps one it gave, and leaves hand-written fields alone', () => {
    const bounds = 'At most 100: a larger value is an error.';
    expect([firstArgument('Query', 'orders'), firstArgument('Order', 'lines'), firstArgument('Query', 'recent'), firstArgument('Query', 'search')].map((argument) => argument.description)).toEqual([
      bounds,
      bounds,
      'Newest first.',
      undefined,
    ]);
  });

  it('says how many items a join with a limit below the bound holds at most', () => {
    expect([firstArgument('Customer', 'lastOrders'), firstArgument('Customer', 'lastOrder')].map((argument) => argument.description)).toEqual([
      'At most 100: a larger value is an error. The list holds at most 3 items, whatever a larger value asks.',
      'At most 100: a larger value is an error. The list holds at most 1 item, whatever a larger value asks.',
    ]);
  });
});
