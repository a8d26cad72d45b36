import { badUserInput, objectIdArgument, type WritePlan } from 'docjoin';
import { ObjectId } from 'bson';
import type { MutationResolvers } from '../generated/resolvers-types';

const MAX_LINES = 50;

/**
 * A custom mutation: the order's total comes from the products' prices, so it reads every product of
 * the order (ONE find for all of them), then inserts the order with them preloaded: the snapshots inside
 * its lines are filled without reading them again; the insert reads the customer for its snapshot. The
 * customer's order count follows, as the directives declare. The write unit keeps the access rules: a
 * customer's order is theirs (an order for anyone else is FORBIDDEN before anything is written), and
 * the products are read through the viewer's filters.
 */
export const placeOrder: NonNullable<MutationResolvers['placeOrder']> = async (_parent, args, context, info) => {
  const given = args.customerId ?? context.viewer.subject;
  if (given === undefined || given === null) throw badUserInput('customerId is needed: the request names no customer (no token with one)', { argumentName: 'customerId' });
  const customerId = objectIdArgument(given, 'customerId');
  if (args.lines.length < 1 || args.lines.length > MAX_LINES) throw badUserInput(`lines must hold 1 to ${MAX_LINES} lines, got ${args.lines.length}`, { argumentName: 'lines' });
  const lines = args.lines.map((line, index) => {
    if (!Number.isInteger(line.quantity) || line.quantity < 1) throw badUserInput(`lines[${index}].quantity must be a whole number of at least 1`, { argumentName: 'lines' });
    return { product: objectIdArgument(line.product, `lines[${index}].product`), quantity: line.quantity };
  });
  // Made once, outside the unit: a transaction retry inserts the same order.
  const id = new ObjectId();
  const placedAt = new Date();
  await context.writes.run(info, async (unit) => {
    const products = await unit.requireMany('Product', [...new Set(lines.map((line) => line.product.toHexString()))].map((hex) => new ObjectId(hex)), ['name', 'price']);
    const price = new Map(products.map((product) => [String(product._id), product.price as number]));
    const total = lines.reduce((sum, line) => sum + line.quantity * price.get(String(line.product))!, 0);
    await unit.insert(
      'Order',
      { _id: id, status: 'PLACED', placedAt, total, customer: { id: customerId }, lines: lines.map((line) => ({ quantity: line.quantity, product: { id: line.product } })) },
      products,
    );
  });
  const order = await context.documents.findOne(info, 'Order', { _id: id });
  if (!order) throw new Error('the order was removed before it could be read back');
  return order;
};

/** What placeOrder's write unit does, next to it, so its cost is estimated before it runs. */
export const placeOrderPlan: WritePlan = [
  { kind: 'requireMany', typeName: 'Product', maxKeys: MAX_LINES },
  { kind: 'insert', typeName: 'Order', preloaded: ['Order.lines.product'] },
];
