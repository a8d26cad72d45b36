import { badUserInput, objectIdArgument, type WritePlan } from 'docjoin';
import { ObjectId } from 'bson';
import type { MutationResolvers } from '../generated/resolvers-types';

const MAX_LINES = 50;

/**
 * A custom mutation: the order's total comes from the products' prices, so it reads the customer and
 * every product of the order (ONE find for all of them), then inserts the order with those documents
 * preloaded: the snapshots inside its lines and of its customer are filled without reading them again.
 * The customer's order count follows, as the directives declare.
 */
export const placeOrder: NonNullable<MutationResolvers['placeOrder']> = async (_parent, args, context, info) => {
  const customerId = objectIdArgument(args.customerId, 'customerId');
  if (args.lines.length < 1 || args.lines.length > MAX_LINES) throw badUserInput(`lines must hold 1 to ${MAX_LINES} lines, got ${args.lines.length}`, { argumentName: 'lines' });
  const lines = args.lines.map((line, index) => {
    if (!Number.isInteger(line.quantity) || line.quantity < 1) throw badUserInput(`lines[${index}].quantity must be a whole number of at least 1`, { argumentName: 'lines' });
    return { product: objectIdArgument(line.product, `lines[${index}].product`), quantity: line.quantity };
  });
  // Made once, outside the unit: a transaction retry inserts the same order.
  const id = new ObjectId();
  const placedAt = new Date();
  await context.writes.run(info, async (unit) => {
    const customer = await unit.requireOne('Customer', { _id: customerId }, ['_id', 'name', 'tier'], customerId.toHexString());
    const products = await unit.requireMany('Product', [...new Set(lines.map((line) => line.product.toHexString()))].map((hex) => new ObjectId(hex)), ['name', 'price']);
    const price = new Map(products.map((product) => [String(product._id), product.price as number]));
    const total = lines.reduce((sum, line) => sum + line.quantity * price.get(String(line.product))!, 0);
    await unit.insert(
      'Order',
      { _id: id, status: 'PLACED', placedAt, total, customer: { id: customerId }, lines: lines.map((line) => ({ quantity: line.quantity, product: { id: line.product } })) },
      [customer, ...products],
    );
  });
  const order = await context.documents.findOne(info, 'Order', { _id: id });
  if (!order) throw new Error('the order was removed before it could be read back');
  return order;
};

/** What placeOrder's write unit does, next to it, so its cost is estimated before it runs. */
export const placeOrderPlan: WritePlan = [
  { kind: 'requireOne', typeName: 'Customer' },
  { kind: 'requireMany', typeName: 'Product', maxKeys: MAX_LINES },
  { kind: 'insert', typeName: 'Order', preloaded: ['Order.customer', 'Order.lines.product'] },
];
