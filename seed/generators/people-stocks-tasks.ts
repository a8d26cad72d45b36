import { DAY_MS, DEMO_EPOCH_MS, HOUR_MS } from '../demo-clock';
import type { AddressDoc, ContactDetailDoc, HoldingDoc, PersonDoc, StockDoc, TaskDoc } from '../demo-documents';
import { demoIdSequence } from '../deterministic-object-ids';
import { createPrng, seedFromLabel, type Prng } from '../prng';
import {
  EMAIL_DOMAINS, FIRST_NAMES, LAST_NAMES, PLACES, SOCIAL_NETWORKS, STREET_NAMES, TASK_OBJECTS, TASK_VERBS,
} from '../vocabulary';

/**
 * People with embedded addresses, contact details of three shapes and stock holdings; stocks
 * referenced by those holdings; tasks in a two-way reference with their owners
 * (person.taskIds ↔ task.ownerId).
 */
export function generatePeopleStocksTasks(counts: { people: number; stocks: number; tasks: number }): {
  people: PersonDoc[];
  stocks: StockDoc[];
  tasks: TaskDoc[];
} {
  const stocks = generateStocks(counts.stocks);
  const rng = createPrng(seedFromLabel('people'));
  const nextId = demoIdSequence('people');
  const people: PersonDoc[] = [];
  for (let i = 0; i < counts.people; i++) {
    const firstName = rng.pick(FIRST_NAMES);
    const lastName = rng.pick(LAST_NAMES);
    people.push({
      _id: nextId(),
      firstName,
      lastName,
      addresses: generateAddresses(rng),
      contactDetails: generateContactDetails(rng, firstName, lastName),
      holdings: generateHoldings(rng, stocks),
      taskIds: [],
    });
  }
  const tasks = generateTasks(counts.tasks, people);
  return { people, stocks, tasks };
}

function generateStocks(count: number): StockDoc[] {
  const rng = createPrng(seedFromLabel('stocks'));
  const nextId = demoIdSequence('stocks');
  const symbols = new Set<string>();
  const stocks: StockDoc[] = [];
  for (let i = 0; i < count; i++) {
    let symbol: string;
    do symbol = rng.letters(4).toUpperCase();
    while (symbols.has(symbol));
    symbols.add(symbol);
    const open = rng.float(1, 500, 2);
    stocks.push({
      _id: nextId(),
      symbol,
      open,
      high: round2(open * (1 + rng.float(0, 0.08, 4))),
      low: round2(open * (1 - rng.float(0, 0.08, 4))),
      vol: rng.int(100_000, 50_000_000),
      mktCap: rng.int(1_000, 2_500_000) * 1_000_000,
      pe: rng.float(3, 90, 2),
    });
  }
  return stocks;
}

function generateAddresses(rng: Prng): AddressDoc[] {
  const addresses: AddressDoc[] = [];
  const count = rng.chance(0.7) ? 1 : 2;
  for (let i = 0; i < count; i++) {
    const place = rng.pick(PLACES);
    addresses.push({
      street: `${rng.int(1, 9_999)} ${rng.pick(STREET_NAMES)}`,
      city: place.city,
      state: place.state,
      zip: `${place.zipPrefix}${String(rng.int(0, 99)).padStart(2, '0')}`,
      country: place.country,
    });
  }
  return addresses;
}

function generateContactDetails(rng: Prng, firstName: string, lastName: string): ContactDetailDoc[] {
  const slug = `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]/g, '');
  const details: ContactDetailDoc[] = [];
  const count = rng.int(1, 4);
  for (let i = 0; i < count; i++) {
    const roll = rng.next();
    if (roll < 0.4) {
      details.push({ kind: 'email', email: `${slug}${i === 0 ? '' : i}@${rng.pick(EMAIL_DOMAINS)}` });
    } else if (roll < 0.75) {
      const phone = `+1 555 ${rng.int(100, 999)}-${String(rng.int(0, 9_999)).padStart(4, '0')}`;
      details.push(
        rng.chance(0.3) ? { kind: 'phone', phone, extension: String(rng.int(100, 9_999)) } : { kind: 'phone', phone },
      );
    } else {
      details.push({ kind: 'social', network: rng.pick(SOCIAL_NETWORKS), handle: `@${slug.replace('.', '_')}` });
    }
  }
  return details;
}

function generateHoldings(rng: Prng, stocks: readonly StockDoc[]): HoldingDoc[] {
  const count = Math.min(rng.int(1, 5), stocks.length);
  return rng.distinctInts(count, stocks.length).map((index) => ({
    stockId: (stocks[index] as StockDoc)._id,
    numberHeld: rng.int(1, 100) * 10,
  }));
}

/** Each task gets a random owner, so people own 0 to a handful; both sides of the reference are written here. */
function generateTasks(count: number, people: PersonDoc[]): TaskDoc[] {
  const rng = createPrng(seedFromLabel('tasks'));
  const nextId = demoIdSequence('tasks');
  const tasks: TaskDoc[] = [];
  for (let i = 0; i < count; i++) {
    const owner = rng.pick(people);
    const dueMs = DEMO_EPOCH_MS + rng.int(-30, 60) * DAY_MS + rng.int(8, 18) * HOUR_MS;
    const task: TaskDoc = {
      _id: nextId(),
      description: `${rng.pick(TASK_VERBS)} ${rng.pick(TASK_OBJECTS)}`,
      due: new Date(dueMs),
      done: dueMs < DEMO_EPOCH_MS ? rng.chance(0.7) : rng.chance(0.1),
      ownerId: owner._id,
    };
    tasks.push(task);
    owner.taskIds.push(task._id);
  }
  return tasks;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
