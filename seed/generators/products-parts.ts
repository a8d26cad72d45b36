import type { PartDoc, ProductDoc } from '../demo-documents';
import { demoIdSequence } from '../deterministic-object-ids';
import { createPrng, seedFromLabel } from '../prng';
import { PART_MATERIALS, PART_NOUNS, PRODUCT_ADJECTIVES, PRODUCT_NOUNS } from '../vocabulary';

const MIN_PARTS_PER_PRODUCT = 5;
const MAX_PARTS_PER_PRODUCT = 15;

/**
 * Parts, and products that keep a snapshot of ~10 parts' {id, name} each. Parts are shared between
 * products (the seeds' one-to-N that became N-to-N), and some parts belong to no product.
 */
export function generateProductsParts(counts: { products: number; parts: number }): {
  products: ProductDoc[];
  parts: PartDoc[];
} {
  const rng = createPrng(seedFromLabel('products'));
  const nextPartId = demoIdSequence('parts');
  const partnos = new Set<string>();
  const parts: PartDoc[] = [];
  for (let i = 0; i < counts.parts; i++) {
    let partno: string;
    do partno = `${rng.int(100, 999)}-${rng.letters(3)}-${rng.int(100, 999)}`;
    while (partnos.has(partno));
    partnos.add(partno);
    const cost = rng.float(0.05, 40, 2);
    parts.push({
      _id: nextPartId(),
      partno,
      name: `#${rng.int(2, 12)} ${rng.pick(PART_MATERIALS)} ${rng.pick(PART_NOUNS)}`,
      qty: rng.int(0, 500),
      cost,
      price: Math.round(cost * (1.5 + rng.next() * 2.5) * 100) / 100,
    });
  }

  const nextProductId = demoIdSequence('products');
  const combinations = PRODUCT_ADJECTIVES.length * PRODUCT_NOUNS.length;
  const products: ProductDoc[] = [];
  for (let i = 0; i < counts.products; i++) {
    const combination = i % combinations;
    const series = Math.floor(i / combinations);
    const partCount = Math.min(rng.int(MIN_PARTS_PER_PRODUCT, MAX_PARTS_PER_PRODUCT), parts.length);
    products.push({
      _id: nextProductId(),
      // The first product is the seeds' "left-handed smoke shifter", catalog number 1234.
      catalogNumber: String(1_234 + i),
      name:
        `${PRODUCT_ADJECTIVES[combination % PRODUCT_ADJECTIVES.length]} ` +
        `${PRODUCT_NOUNS[Math.floor(combination / PRODUCT_ADJECTIVES.length)]}` +
        (series === 0 ? '' : ` Mk ${series + 1}`),
      parts: rng.distinctInts(partCount, parts.length).map((index) => {
        const part = parts[index] as PartDoc;
        return { id: part._id, name: part.name };
      }),
    });
  }
  return { products, parts };
}
