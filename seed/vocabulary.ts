/** Word lists the generator draws realistic-looking values from (names and phrases from the seed articles' world). */

export const FIRST_NAMES = [
  'Thomas', 'William', 'Ada', 'Grace', 'Linus', 'Margaret', 'Alan', 'Barbara', 'Dennis', 'Frances',
  'Ken', 'Radia', 'Edsger', 'Hedy', 'Donald', 'Katherine', 'John', 'Shafi', 'Tim', 'Sophie',
  'Guido', 'Jean', 'Niklaus', 'Mary', 'Bjarne', 'Lynn', 'James', 'Anita', 'Leslie', 'Karen',
  'Rob', 'Adele', 'Brian', 'Evelyn', 'Andrew', 'Cynthia', 'Yukihiro', 'Ruth', 'Larry', 'Joan',
  'Martin', 'Ida', 'Peter', 'Carol', 'Richard', 'Susan', 'Robert', 'Elena', 'David', 'Priya',
] as const;

export const LAST_NAMES = [
  'Andersen', 'Wakefield', 'Lovelace', 'Hopper', 'Torvalds', 'Hamilton', 'Turing', 'Liskov', 'Ritchie', 'Allen',
  'Thompson', 'Perlman', 'Dijkstra', 'Lamarr', 'Knuth', 'Johnson', 'McCarthy', 'Goldwasser', 'Berners-Lee', 'Wilson',
  'van Rossum', 'Sammet', 'Wirth', 'Keller', 'Stroustrup', 'Conway', 'Gosling', 'Borg', 'Lamport', 'Jones',
  'Pike', 'Goldberg', 'Kernighan', 'Berezin', 'Tanenbaum', 'Dwork', 'Matsumoto', 'Leach', 'Page', 'Clarke',
  'Fowler', 'Rhodes', 'Naur', 'Kempf', 'Stallman', 'Kare', 'Noyce', 'Garcia', 'Patterson', 'Sharma',
] as const;

export interface PlaceName {
  city: string;
  state: string | null;
  country: string;
  zipPrefix: string;
}

export const PLACES: readonly PlaceName[] = [
  { city: 'Seattle', state: 'WA', country: 'USA', zipPrefix: '981' },
  { city: 'Redmond', state: 'WA', country: 'USA', zipPrefix: '980' },
  { city: 'Portland', state: 'OR', country: 'USA', zipPrefix: '972' },
  { city: 'Austin', state: 'TX', country: 'USA', zipPrefix: '787' },
  { city: 'New York', state: 'NY', country: 'USA', zipPrefix: '100' },
  { city: 'Boston', state: 'MA', country: 'USA', zipPrefix: '021' },
  { city: 'Toronto', state: 'ON', country: 'Canada', zipPrefix: 'M5V' },
  { city: 'Sydney', state: 'NSW', country: 'Australia', zipPrefix: '200' },
  { city: 'London', state: null, country: 'UK', zipPrefix: 'EC1' },
  { city: 'Dublin', state: null, country: 'Ireland', zipPrefix: 'D02' },
  { city: 'Berlin', state: null, country: 'Germany', zipPrefix: '101' },
  { city: 'Amsterdam', state: null, country: 'Netherlands', zipPrefix: '101' },
];

export const STREET_NAMES = [
  'Some Street', 'Pine Street', 'Main Street', 'Lake Avenue', 'Elm Road', 'Harbor Way', 'Cedar Lane',
  'Market Street', 'Hill Road', 'River Drive', 'Park Avenue', 'Station Road', 'Mill Lane', 'Oak Court',
] as const;

export const SOCIAL_NETWORKS = ['mastodon', 'github', 'bluesky', 'linkedin'] as const;

export const EMAIL_DOMAINS = ['example.com', 'example.org', 'mail.example.net'] as const;

export const TASK_VERBS = [
  'Review', 'Renew', 'File', 'Update', 'Book', 'Prepare', 'Fix', 'Schedule', 'Call about', 'Archive',
] as const;

export const TASK_OBJECTS = [
  'the quarterly report', 'passport', 'expense claims', 'the team wiki', 'flights to Seattle', 'the board slides',
  'the leaking tap', 'a dentist appointment', 'the insurance policy', 'last year\'s invoices', 'the portfolio',
  'the conference talk',
] as const;

export const POST_TOPICS = [
  'the coolest Cloud', 'document databases', 'schema design', 'denormalization', 'embedded arrays',
  'application-level joins', 'bounded arrays', 'one-to-squillions', 'two-way references', 'query planning',
  'index selection', 'write amplification',
] as const;

export const POST_TITLE_TEMPLATES = [
  'What\'s new in {topic}', 'A gentle introduction to {topic}', '{topic}: lessons learned',
  'Ten myths about {topic}', 'Why {topic} matters', 'Rethinking {topic}',
] as const;

export const POST_SENTENCES = [
  'Model data around how the application reads it.',
  'Embed what is owned and bounded, reference what is shared or unbounded.',
  'Every denormalized copy is a write you have to remember.',
  'Arrays should not grow without bound.',
  'An index on the join key turns a scan into a seek.',
  'Measure the round trips before you optimize them.',
  'A snapshot trades write cost for read speed.',
  'Read-to-write ratio decides whether denormalizing pays off.',
] as const;

export const COMMENTER_HANDLES = [
  'anon', 'bob', 'jane', 'angry', 'bored', 'curious', 'dba_dave', 'nosql_nina', 'pedant', 'lurker',
] as const;

export const COMMENT_TEXTS = [
  'something useful, I\'m sure', 'wisdom from the interwebs', 'and on we go ...', 'blah angry blah angry',
  'oh man, will this ever end?', 'more goodness', 'tales from the field', 'yet more', 'great write-up, thanks!',
  'what about transactions?', 'we tried this in production and it worked', 'citation needed',
] as const;

export const PUBLISHER_NAMES = [
  'Microsoft Press', 'O\'Reilly Media', 'Addison-Wesley', 'No Starch Press', 'Manning', 'Pragmatic Bookshelf',
  'Apress', 'Packt', 'MIT Press', 'Prentice Hall',
] as const;

export const PUBLISHER_CITIES = [
  'Redmond', 'Sebastopol', 'Boston', 'San Francisco', 'Shelter Island', 'Raleigh', 'New York', 'Birmingham',
  'Cambridge', 'London',
] as const;

export const BOOK_TITLE_TEMPLATES = [
  '{subject} 101', '{subject} for RDBMS Users', 'Deep Dive into {subject}', 'Learn about {subject}',
  'Taking over the world with {subject}', 'Practical {subject}', '{subject} in Action', 'The Art of {subject}',
] as const;

export const BOOK_SUBJECTS = [
  'Azure Cosmos DB', 'MongoDB', 'GraphQL', 'TypeScript', 'Data Modeling', 'Distributed Systems', 'JSON Documents',
  'Query Optimization', 'Indexing', 'Replication', 'Sharding', 'Caching', 'Event Logging', 'Schema Design',
] as const;

export const PRODUCT_ADJECTIVES = [
  'left-handed', 'right-handed', 'reversible', 'heavy-duty', 'compact', 'deluxe', 'portable', 'industrial',
] as const;

export const PRODUCT_NOUNS = [
  'smoke shifter', 'widget press', 'sprocket wrench', 'flux capacitor', 'gear housing', 'pipe stretcher',
  'sky hook', 'muffler bearing',
] as const;

export const PART_NOUNS = [
  'grommet', 'washer', 'bolt', 'gasket', 'hex nut', 'spring', 'bushing', 'O-ring', 'rivet', 'bracket',
] as const;

export const PART_MATERIALS = ['steel', 'brass', 'nylon', 'rubber', 'aluminium', 'copper'] as const;

export const HOST_WORDS = [
  'goofy', 'mickey', 'donald', 'pluto', 'daisy', 'minnie', 'scrooge', 'huey', 'dewey', 'louie',
] as const;

export const LOG_TEMPLATES = [
  'cpu is on fire!', 'disk /var at {pct}%', 'load average {load}', 'connection pool exhausted ({n} waiting)',
  'GET /api/items {ms}ms', 'cache hit ratio {pct}%', 'backup finished in {n}s', 'user login failed ({n} attempts)',
  'memory usage {pct}%', 'certificate expires in {n} days',
] as const;
