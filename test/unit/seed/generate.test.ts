import { createHash } from 'node:crypto';
import { BSON, EJSON, type ObjectId } from 'bson';
import { DEMO_EPOCH_MS } from '../../../seed/demo-clock';
import { DEMO_ID_TAGS } from '../../../seed/deterministic-object-ids';
import {
  DEMO_COLLECTIONS,
  demoSizes,
  generateDemoData,
  type CommentDoc,
  type DemoData,
  type LogMessageDoc,
} from '../../../seed/generate';

const hex = (id: ObjectId): string => id.toHexString();
const ejson = (value: unknown): string => EJSON.stringify(value, { relaxed: false });

/** A digest of every document's exact BSON bytes (key order and types included); fast even at 100k documents. */
function digest(dataset: DemoData): string {
  const hash = createHash('sha256');
  for (const collection of DEMO_COLLECTIONS) {
    hash.update(collection);
    for (const doc of dataset[collection]) hash.update(BSON.serialize(doc));
  }
  return hash.digest('hex');
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

let data: DemoData;
let dataDigest: string;
beforeAll(() => {
  data = generateDemoData(1);
  dataDigest = digest(data);
});

describe('sizes', () => {
  const scaleOne = {
    people: 500, stocks: 50, tasks: 1_500, posts: 300, comments: 10_000, publishers: 20,
    books: 1_000, authors: 200, products: 200, parts: 2_000, hosts: 100, logMessages: 100_000,
  };

  test('scale 1 has exactly the documented sizes', () => {
    const actual = Object.fromEntries(DEMO_COLLECTIONS.map((c) => [c, data[c].length]));
    expect(actual).toEqual(scaleOne);
    expect(demoSizes(1)).toEqual(scaleOne);
  });

  test('scale 2 doubles every collection', () => {
    const doubled = generateDemoData(2);
    const actual = Object.fromEntries(DEMO_COLLECTIONS.map((c) => [c, doubled[c].length]));
    expect(actual).toEqual(Object.fromEntries(Object.entries(scaleOne).map(([c, n]) => [c, n * 2])));
  });

  test('fractional scales round, keep at least one document and keep the per-parent ratios', () => {
    expect(demoSizes(0.1)).toEqual({
      people: 50, stocks: 5, tasks: 150, posts: 30, comments: 1_000, publishers: 2,
      books: 100, authors: 20, products: 20, parts: 200, hosts: 10, logMessages: 10_000,
    });
    expect(demoSizes(0.001)).toEqual({
      people: 1, stocks: 1, tasks: 3, posts: 1, comments: 10, publishers: 1,
      books: 1, authors: 1, products: 1, parts: 2, hosts: 1, logMessages: 1_000,
    });
  });

  test.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('scale %p is rejected', (scale) => {
    expect(() => generateDemoData(scale)).toThrow(`scale must be a finite number greater than 0, got ${scale}`);
  });
});

describe('determinism', () => {
  test('the same scale gives identical documents', () => {
    expect(digest(generateDemoData(1))).toBe(dataDigest);
  });

  test('ids are fixed timestamp + collection tag + counter, stable across runs', () => {
    expect(hex(data.people[0]!._id)).toBe('6955b9000100000000000001');
    expect(hex(data.people[499]!._id)).toBe('6955b90001000000000001f4');
    expect(hex(data.logMessages[99_999]!._id)).toBe('6955b9000c000000000186a0');
    for (const collection of DEMO_COLLECTIONS) {
      data[collection].forEach((doc, index) => {
        const id = hex(doc._id);
        if (id.slice(8, 10) !== DEMO_ID_TAGS[collection].toString(16).padStart(2, '0') ||
            parseInt(id.slice(10), 16) !== index + 1) {
          throw new Error(`${collection}[${index}] has id ${id}`);
        }
      });
    }
  });

  test('ids are unique across all collections', () => {
    const ids = new Set<string>();
    let total = 0;
    for (const collection of DEMO_COLLECTIONS) {
      for (const doc of data[collection]) {
        ids.add(hex(doc._id));
        total++;
      }
    }
    expect(ids.size).toBe(total);
  });

  test('the dataset matches its recorded fingerprint (update it only when changing the generator on purpose)', () => {
    expect(dataDigest).toBe('716f8daf2745b724d390ed5b52d7c425ef2a7d31bc26ff1fdf904eab045427ac');
  });

  test('every date comes from the fixed epoch, never the clock', () => {
    const dates = [
      ...data.posts.map((p) => p.createdAt), ...data.comments.map((c) => c.createdAt),
      ...data.books.map((b) => b.publishedAt), ...data.logMessages.map((m) => m.time),
    ];
    expect(dates.every((d) => d.getTime() < DEMO_EPOCH_MS)).toBe(true);
    const dues = data.tasks.map((t) => t.due.getTime());
    expect(Math.min(...dues)).toBeGreaterThanOrEqual(DEMO_EPOCH_MS - 30 * 86_400_000);
    expect(Math.max(...dues)).toBeLessThan(DEMO_EPOCH_MS + 61 * 86_400_000);
  });
});

describe('books, authors and publishers', () => {
  test('each book has 1–3 distinct authors whose snapshot equals the author {id, name, thumbnailUrl}', () => {
    const authors = new Map(data.authors.map((a) => [hex(a._id), a]));
    const histogram = [0, 0, 0, 0];
    for (const book of data.books) {
      histogram[book.authors.length]!++;
      expect(new Set(book.authors.map((a) => hex(a.id))).size).toBe(book.authors.length);
      for (const snapshot of book.authors) {
        const author = authors.get(hex(snapshot.id));
        expect(snapshot).toEqual({ id: author!._id, name: author!.name, thumbnailUrl: author!.thumbnailUrl });
      }
    }
    expect(histogram[0]).toBe(0);
    expect(histogram[1]! + histogram[2]! + histogram[3]!).toBe(1_000);
    expect(Math.min(histogram[1]!, histogram[2]!, histogram[3]!)).toBeGreaterThan(250);
  });

  test("each author's bookIds are exactly the books listing them, in _id order, and countOfBooks is its length", () => {
    const listing = new Map<string, string[]>();
    for (const book of data.books) {
      for (const snapshot of book.authors) {
        const ids = listing.get(hex(snapshot.id)) ?? [];
        ids.push(hex(book._id));
        listing.set(hex(snapshot.id), ids);
      }
    }
    for (const author of data.authors) {
      expect(author.bookIds.map(hex)).toEqual(listing.get(hex(author._id)));
      expect(author.countOfBooks).toBe(author.bookIds.length);
      expect(author.countOfBooks).toBeGreaterThan(0);
      expect(author.name).toBe(`${author.firstName} ${author.lastName}`);
    }
    expect(data.authors.reduce((sum, a) => sum + a.countOfBooks, 0))
      .toBe(data.books.reduce((sum, b) => sum + b.authors.length, 0));
  });

  test('author names are unique; books reference existing publishers; every publisher has books', () => {
    expect(new Set(data.authors.map((a) => a.name)).size).toBe(200);
    const publisherIds = new Set(data.publishers.map((p) => hex(p._id)));
    expect(data.books.every((b) => publisherIds.has(hex(b.publisherId)))).toBe(true);
    expect(new Set(data.books.map((b) => hex(b.publisherId))).size).toBe(20);
    expect(new Set(data.publishers.map((p) => p.name)).size).toBe(20);
  });

  test('ISBNs are unique, valid ISBN-13s', () => {
    expect(new Set(data.books.map((b) => b.isbn)).size).toBe(1_000);
    for (const { isbn } of data.books) {
      expect(isbn).toMatch(/^978\d{10}$/);
      const sum = [...isbn].reduce((s, digit, i) => s + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
      expect(sum % 10).toBe(0);
    }
  });
});

describe('posts and comments', () => {
  const newestFirst = (a: CommentDoc, b: CommentDoc) => b.createdAt.getTime() - a.createdAt.getTime();

  test("recentComments are exactly the post's 3 newest comments, newest first, and commentCount is exact", () => {
    const byPost = groupBy(data.comments, (c) => hex(c.postId));
    for (const post of data.posts) {
      const comments = [...(byPost.get(hex(post._id)) ?? [])].sort(newestFirst);
      expect(post.commentCount).toBe(comments.length);
      expect(ejson(post.recentComments)).toBe(ejson(comments.slice(0, 3)));
    }
  });

  test("comment times are distinct within a post, so 'newest' is unambiguous, and after the post", () => {
    const posts = new Map(data.posts.map((p) => [hex(p._id), p]));
    for (const [postId, comments] of groupBy(data.comments, (c) => hex(c.postId))) {
      expect(new Set(comments.map((c) => c.createdAt.getTime())).size).toBe(comments.length);
      const created = posts.get(postId)!.createdAt.getTime();
      expect(comments.every((c) => c.createdAt.getTime() > created)).toBe(true);
    }
  });

  test('every comment belongs to an existing post; counts sum to the total; short and empty lists exist', () => {
    const postIds = new Set(data.posts.map((p) => hex(p._id)));
    expect(data.comments.every((c) => postIds.has(hex(c.postId)))).toBe(true);
    expect(data.posts.reduce((sum, p) => sum + p.commentCount, 0)).toBe(10_000);
    const countsOf = (n: number) => data.posts.filter((p) => p.commentCount === n).length;
    expect([countsOf(0), countsOf(1), countsOf(2)]).toEqual([6, 6, 6]);
    expect(data.posts.filter((p) => p.commentCount >= 3).length).toBe(282);
    expect(Math.max(...data.posts.map((p) => p.commentCount))).toBeGreaterThan(100);
  });

  test('embedded copies are separate objects from the comments collection', () => {
    const post = data.posts.find((p) => p.commentCount > 0)!;
    const source = data.comments.find((c) => hex(c._id) === hex(post.recentComments[0]!._id))!;
    expect(post.recentComments[0]).not.toBe(source);
    expect(post.recentComments[0]!.createdAt).not.toBe(source.createdAt);
  });
});

describe('hosts and log messages', () => {
  test("each message's host snapshot equals its host's {id, name, ipaddr}; 1,000 messages per host", () => {
    const hosts = new Map(data.hosts.map((h) => [hex(h._id), h]));
    const perHost = new Map<string, number>();
    for (const message of data.logMessages) {
      const host = hosts.get(hex(message.host.id));
      if (!host || message.host.name !== host.name || message.host.ipaddr !== host.ipaddr ||
          Object.keys(message.host).length !== 3) {
        throw new Error(`log message ${hex(message._id)} has a wrong host snapshot`);
      }
      perHost.set(hex(host._id), (perHost.get(hex(host._id)) ?? 0) + 1);
    }
    expect([...perHost.values()].every((n) => n === 1_000)).toBe(true);
    expect(perHost.size).toBe(100);
  });

  test("recentLogs are exactly the host's 10 newest messages, newest first", () => {
    const byHost = groupBy(data.logMessages, (m) => hex(m.host.id));
    const newestFirst = (a: LogMessageDoc, b: LogMessageDoc) => b.time.getTime() - a.time.getTime();
    for (const host of data.hosts) {
      const messages = [...byHost.get(hex(host._id))!].sort(newestFirst);
      expect(ejson(host.recentLogs)).toBe(ejson(messages.slice(0, 10)));
    }
  });

  test('message times are globally unique and in _id order; host names and addresses are unique', () => {
    const times = data.logMessages.map((m) => m.time.getTime());
    expect(times.every((t, i) => i === 0 || t > times[i - 1]!)).toBe(true);
    expect(new Set(data.hosts.map((h) => h.ipaddr)).size).toBe(100);
    expect(new Set(data.hosts.map((h) => h.name)).size).toBe(100);
    expect(data.hosts[0]).toMatchObject({ name: 'goofy.example.com', ipaddr: '10.66.0.1' });
  });
});

describe('products and parts', () => {
  test('part snapshots equal the parts {id, name}; 5–15 distinct parts per product, about 10 on average', () => {
    const parts = new Map(data.parts.map((p) => [hex(p._id), p]));
    let total = 0;
    for (const product of data.products) {
      expect(product.parts.length).toBeGreaterThanOrEqual(5);
      expect(product.parts.length).toBeLessThanOrEqual(15);
      expect(new Set(product.parts.map((p) => hex(p.id))).size).toBe(product.parts.length);
      for (const snapshot of product.parts) {
        const part = parts.get(hex(snapshot.id));
        expect(snapshot).toEqual({ id: part!._id, name: part!.name });
      }
      total += product.parts.length;
    }
    expect(total / data.products.length).toBeGreaterThan(9);
    expect(total / data.products.length).toBeLessThan(11);
  });

  test('catalog numbers and part numbers are unique; prices exceed costs', () => {
    expect(new Set(data.products.map((p) => p.catalogNumber)).size).toBe(200);
    expect(data.products[0]).toMatchObject({ catalogNumber: '1234', name: 'left-handed smoke shifter' });
    expect(new Set(data.parts.map((p) => p.partno)).size).toBe(2_000);
    expect(data.parts.every((p) => /^\d{3}-[a-z]{3}-\d{3}$/.test(p.partno) && p.price > p.cost)).toBe(true);
  });
});

describe('people, stocks and tasks', () => {
  test('person.taskIds and task.ownerId are two-way consistent', () => {
    const people = new Map(data.people.map((p) => [hex(p._id), p]));
    const tasks = new Map(data.tasks.map((t) => [hex(t._id), t]));
    for (const task of data.tasks) {
      const owner = people.get(hex(task.ownerId));
      expect(owner!.taskIds.map(hex)).toContain(hex(task._id));
    }
    for (const person of data.people) {
      expect(new Set(person.taskIds.map(hex)).size).toBe(person.taskIds.length);
      for (const taskId of person.taskIds) expect(hex(tasks.get(hex(taskId))!.ownerId)).toBe(hex(person._id));
    }
    expect(data.people.reduce((sum, p) => sum + p.taskIds.length, 0)).toBe(1_500);
    expect(data.people.some((p) => p.taskIds.length === 0)).toBe(true);
  });

  test('holdings reference 1–5 distinct existing stocks', () => {
    const stockIds = new Set(data.stocks.map((s) => hex(s._id)));
    for (const person of data.people) {
      const ids = person.holdings.map((h) => hex(h.stockId));
      expect(ids.length).toBeGreaterThanOrEqual(1);
      expect(ids.length).toBeLessThanOrEqual(5);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.every((id) => stockIds.has(id))).toBe(true);
      expect(person.holdings.every((h) => Number.isInteger(h.numberHeld) && h.numberHeld > 0)).toBe(true);
    }
  });

  test('contact details mix the three kinds, each with exactly its own fields', () => {
    const kinds = new Map<string, number>();
    for (const detail of data.people.flatMap((p) => p.contactDetails)) {
      kinds.set(detail.kind, (kinds.get(detail.kind) ?? 0) + 1);
      const keys = Object.keys(detail).sort().join(',');
      switch (detail.kind) {
        case 'email':
          expect(keys).toBe('email,kind');
          break;
        case 'phone':
          expect(['kind,phone', 'extension,kind,phone']).toContain(keys);
          break;
        case 'social':
          expect(keys).toBe('handle,kind,network');
          break;
        default: {
          const unexpected: never = detail;
          throw new Error(`unexpected contact detail ${JSON.stringify(unexpected)}`);
        }
      }
    }
    expect([...kinds.keys()].sort()).toEqual(['email', 'phone', 'social']);
    expect(data.people.some((p) => new Set(p.contactDetails.map((d) => d.kind)).size > 1)).toBe(true);
  });

  test('stock symbols are unique and prices are coherent', () => {
    expect(new Set(data.stocks.map((s) => s.symbol)).size).toBe(50);
    for (const stock of data.stocks) {
      expect(stock.symbol).toMatch(/^[A-Z]{4}$/);
      expect(stock.low).toBeLessThanOrEqual(stock.open);
      expect(stock.high).toBeGreaterThanOrEqual(stock.open);
    }
  });
});
