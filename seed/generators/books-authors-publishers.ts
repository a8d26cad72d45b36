import { DAY_MS, DEMO_EPOCH_MS } from '../demo-clock';
import type { AuthorDoc, BookDoc, PublisherDoc } from '../demo-documents';
import { demoIdSequence } from '../deterministic-object-ids';
import { createPrng, seedFromLabel, type Prng } from '../prng';
import {
  BOOK_SUBJECTS, BOOK_TITLE_TEMPLATES, FIRST_NAMES, LAST_NAMES, PUBLISHER_CITIES, PUBLISHER_NAMES,
} from '../vocabulary';

const MAX_AUTHORS_PER_BOOK = 3;

/**
 * Publishers (referenced by each book's publisherId), books with a snapshot of their 1–3 authors'
 * {id, name, thumbnailUrl}, and authors whose bookIds and countOfBooks match the books listing them.
 */
export function generateBooksAuthorsPublishers(counts: { publishers: number; books: number; authors: number }): {
  publishers: PublisherDoc[];
  books: BookDoc[];
  authors: AuthorDoc[];
} {
  const rng = createPrng(seedFromLabel('books'));
  const publishers = generatePublishers(rng, counts.publishers);
  const authors = generateAuthors(rng, counts.authors);
  const nextId = demoIdSequence('books');
  const books: BookDoc[] = [];
  for (let b = 0; b < counts.books; b++) {
    const bookId = nextId();
    const authorCount = Math.min(rng.int(1, MAX_AUTHORS_PER_BOOK), authors.length);
    // The first author cycles through everyone, so every author has at least one book.
    const authorIndexes = [b % authors.length];
    while (authorIndexes.length < authorCount) {
      const candidate = rng.int(0, authors.length - 1);
      if (!authorIndexes.includes(candidate)) authorIndexes.push(candidate);
    }
    const bookAuthors = authorIndexes.map((index) => authors[index] as AuthorDoc);
    for (const author of bookAuthors) {
      author.bookIds.push(bookId);
      author.countOfBooks += 1;
    }
    books.push({
      _id: bookId,
      name: rng.pick(BOOK_TITLE_TEMPLATES).replace('{subject}', rng.pick(BOOK_SUBJECTS)),
      isbn: isbn13(b),
      pages: rng.int(80, 900),
      publishedAt: new Date(DEMO_EPOCH_MS - rng.int(30, 30 * 365) * DAY_MS),
      publisherId: rng.pick(publishers)._id,
      authors: bookAuthors.map((author) => ({ id: author._id, name: author.name, thumbnailUrl: author.thumbnailUrl })),
    });
  }
  return { publishers, books, authors };
}

function generatePublishers(rng: Prng, count: number): PublisherDoc[] {
  const nextId = demoIdSequence('publishers');
  const publishers: PublisherDoc[] = [];
  for (let i = 0; i < count; i++) {
    const base = PUBLISHER_NAMES[i % PUBLISHER_NAMES.length] as string;
    const round = Math.floor(i / PUBLISHER_NAMES.length);
    publishers.push({
      _id: nextId(),
      // "Microsoft Press", then "Microsoft Press 2" … keeps names unique at any scale.
      name: round === 0 ? base : `${base} ${round + 1}`,
      location: rng.pick(PUBLISHER_CITIES),
    });
  }
  return publishers;
}

/** Author names are distinct first/last combinations (while the lists last), so a rename is unambiguous. */
function generateAuthors(rng: Prng, count: number): AuthorDoc[] {
  const nextId = demoIdSequence('authors');
  const combinations = FIRST_NAMES.length * LAST_NAMES.length;
  const order = rng.shuffle(Array.from({ length: combinations }, (_, i) => i));
  const authors: AuthorDoc[] = [];
  for (let i = 0; i < count; i++) {
    const combination = order[i % order.length] as number;
    const firstName = FIRST_NAMES[combination % FIRST_NAMES.length] as string;
    const lastName = LAST_NAMES[Math.floor(combination / FIRST_NAMES.length)] as string;
    authors.push({
      _id: nextId(),
      firstName,
      lastName,
      name: `${firstName} ${lastName}`,
      thumbnailUrl: `https://images.example.com/authors/a${i + 1}.png`,
      countOfBooks: 0,
      bookIds: [],
    });
  }
  return authors;
}

/** A valid, unique ISBN-13 per book index (a fixed bijection scrambles the digits). */
function isbn13(index: number): string {
  const body = `978${String((index * 7_919 + 12_345) % 1_000_000_000).padStart(9, '0')}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[i]) * (i % 2 === 0 ? 1 : 3);
  return `${body}${(10 - (sum % 10)) % 10}`;
}
