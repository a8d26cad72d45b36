/// <reference lib="dom" />
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import puppeteer, { type Browser, type ConsoleMessage, type HTTPRequest, type Page } from 'puppeteer-core';
import { loadProject } from 'docjoin';
import { loadConfig } from '../../src/config/config';
import { startServer, type RunningServer } from '../../src/server/start-server';
import { DEMO_DIR } from '../support/demo-project';
import { testEstimateViolations } from '../support/checked-gateway';

/**
 * docjoin's offline IDE in a real headless Chromium (Debian's `chromium` package, driven by
 * puppeteer-core): the page and every asset come from the gateway; queries and headers typed into the
 * editors run, and the cost panel shows each response's cost, commands, writes and refusals. The Sandbox
 * page at /graphql moves to the IDE when nothing outside the gateway can be reached, without breaking
 * its Content-Security-Policy. `npm run test:browser` runs it alone; without Chromium it is skipped with
 * one line. The last screenshot is saved in test-results/.
 */
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path): path is string => path !== undefined && path !== '' && existsSync(path));
const SCREENSHOT_DIR = resolve(__dirname, '../../test-results');
if (!CHROMIUM) console.log('skipped the IDE browser test: no Chromium (apt-get install -y chromium, or set CHROMIUM_PATH)');
const describeWithChromium = CHROMIUM ? describe : describe.skip;

interface ResponseBody {
  readonly data?: Record<string, any> | null;
  readonly errors?: ReadonlyArray<{ readonly message: string; readonly extensions: { readonly code: string } }>;
}

describeWithChromium('in headless Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  const origin = () => new URL(server.gateway.url!).origin;

  beforeAll(async () => {
    const project = await loadProject({ cwd: DEMO_DIR });
    server = await startServer(loadConfig({ PORT: '0' }, {}, project.config), project, { onEstimateViolation: testEstimateViolations.record });
    browser = await puppeteer.launch({ executablePath: CHROMIUM!, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Chromium reports a refused inline script or style as a console error naming the policy. */
  const isPolicyViolation = (message: ConsoleMessage) => message.text().includes('Content Security Policy');

  describe('the Sandbox page at /graphql', () => {
    let page: Page;
    const violations: string[] = [];

    /** A page on which every request outside the gateway gets `outside(request)`'s answer (default: aborted, as offline). */
    async function sandboxPage(outside: (request: HTTPRequest) => Promise<void> = (request) => request.abort()): Promise<Page> {
      const opened = await browser.newPage();
      await opened.setRequestInterception(true);
      opened.on('request', (request) => void (request.url().startsWith(origin()) ? request.continue() : outside(request)));
      opened.on('console', (message) => {
        if (isPolicyViolation(message)) violations.push(message.text());
      });
      return opened;
    }

    afterEach(async () => {
      await page?.close();
      violations.length = 0;
    });

    it('moves to the IDE when nothing outside the gateway answers (offline), with no refusal by the page’s CSP', async () => {
      page = await sandboxPage();
      await page.goto(`${origin()}/graphql`, { waitUntil: 'domcontentloaded' });
      await page.waitForFunction(() => location.pathname === '/ide', { timeout: 15_000 });
      // The IDE is rendered: its editor shows the default operation.
      await page.waitForFunction(() => document.querySelector('.graphiql-query-editor .view-lines')?.textContent?.includes('docjoin'));
      expect(new URL(page.url()).pathname).toBe('/ide');
      expect(await page.$eval('.docjoin-cost h2', (element) => element.textContent)).toBe('MongoDB cost');
      expect(violations).toEqual([]);
    }, 60_000);

    it('stays on Sandbox when its script loads, with the link to the IDE styled in the corner', async () => {
      page = await sandboxPage((request) =>
        request.url().startsWith('https://embeddable-sandbox.cdn.apollographql.com/')
          ? request.respond({ contentType: 'text/javascript', body: 'window.EmbeddedSandbox = function () { window.sandboxStarted = true; };' })
          : request.abort(),
      );
      await page.goto(`${origin()}/graphql`, { waitUntil: 'load' });
      // Long enough for a move to the IDE to have begun.
      await new Promise((done) => setTimeout(done, 500));
      expect(new URL(page.url()).pathname).toBe('/graphql');
      expect(await page.evaluate(() => (window as unknown as { sandboxStarted?: boolean }).sandboxStarted)).toBe(true);
      const link = await page.$eval('#docjoin-ide-link', (element) => {
        const style = getComputedStyle(element);
        return { text: element.textContent, href: element.getAttribute('href'), position: style.position, right: style.right, bottom: style.bottom, color: style.color };
      });
      expect(link).toEqual({ text: "Offline? Open docjoin's IDE", href: '/ide', position: 'fixed', right: '12px', bottom: '12px', color: 'rgb(255, 255, 255)' });
      expect(violations).toEqual([]);
    }, 60_000);
  });

  describe('the IDE', () => {
    let page: Page;
    /** Requests the page made to anywhere but the gateway: must stay empty (the IDE works offline). */
    const elsewhere: string[] = [];
    const consoleErrors: string[] = [];

    beforeAll(async () => {
      page = await browser.newPage();
      await page.setViewport({ width: 1400, height: 900 });
      page.on('request', (request) => {
        const url = request.url();
        if (!url.startsWith(origin()) && !url.startsWith('data:') && !url.startsWith('blob:')) elsewhere.push(url);
      });
      page.on('console', (message) => {
        // Chromium logs every 400 answer; the refusals below are meant.
        if (message.type() === 'error' && !/status of 400/.test(message.text())) consoleErrors.push(message.text());
      });
    });

    const cell = (field: string, column: string) => page.$eval(`[data-field="${field}"] [data-column="${column}"]`, (element) => element.textContent);
    const total = (name: string) => page.$eval(`[data-total="${name}"]`, (element) => element.textContent);
    const totals = () => page.$$eval('[data-total]', (elements) => elements.map((element) => `${element.getAttribute('data-total')}: ${element.textContent}`));
    const outcome = () => page.$eval('.docjoin-cost-outcome', (element) => element.textContent);
    const commandRows = () => page.$$eval('[data-command]', (rows) => rows.map((row) => Array.from(row.querySelectorAll('td'), (cell) => cell.textContent)));
    /** Monaco renders spaces as no-break spaces. */
    const editorText = (selector: string) => page.$eval(selector, (element) => (element.textContent ?? '').replace(/\u00a0/g, ' '));
    const QUERY_EDITOR = '.graphiql-query-editor .monaco-editor';
    /** The headers tab is open (the IDE opens with it); its editor is the one not hidden. */
    const HEADERS_EDITOR = '.graphiql-editor-tool .graphiql-editor:not(.hidden) .monaco-editor';

    /** Replaces an editor's text by typing. Monaco closes brackets and quotes itself, so `typed` leaves out the closing ones it adds. */
    async function typeInto(selector: string, typed: string, expected: string): Promise<void> {
      await page.waitForSelector(selector);
      // On the first line, right of the line numbers.
      await page.click(selector, { offset: { x: 80, y: 8 } });
      await page.keyboard.down('Control');
      await page.keyboard.press('KeyA');
      await page.keyboard.up('Control');
      await page.keyboard.press('Backspace');
      await page.keyboard.type(typed);
      // Monaco paints the text a frame later.
      const lines = `${selector} .view-lines`;
      await page.waitForFunction((view, text) => (document.querySelector(view)?.textContent ?? '').replace(/\u00a0/g, ' ') === text, { timeout: 5_000 }, lines, expected).catch(() => undefined);
      expect(await editorText(lines)).toBe(expected);
    }

    /**
     * Clicks run and waits for the panel to show `ready`. The click goes to the button itself: Monaco's
     * completion list, which opens a moment after typing, may lie over it.
     */
    async function runUntil(ready: () => boolean): Promise<void> {
      await page.$eval('.graphiql-execute-button', (button) => (button as HTMLButtonElement).click());
      await page.waitForFunction(ready);
    }

    /** The same request, sent from here: what the panel must show of it. */
    async function post(query: string, headers: Record<string, string> = {}): Promise<ResponseBody> {
      const response = await fetch(server.gateway.url!, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
      return (await response.json()) as ResponseBody;
    }

    it('runs a query and shows the response, its cost in words and per field, and a header hint naming a field of this schema', async () => {
      const query = '{ books(first: 2) { name authors { name } } }';
      await page.goto(`${origin()}/ide?query=${encodeURIComponent(query)}`, { waitUntil: 'networkidle0' });
      // Ready when the query editor shows the query from the link.
      await page.waitForFunction((selector) => document.querySelector(`${selector} .view-lines`)?.textContent?.includes('books'), {}, QUERY_EDITOR);
      expect(await page.$eval('.docjoin-cost-hint', (element) => element.textContent)).toBe(
        'Headers: {"x-docjoin-strategy": "Post.recentComments=join"} switches a field’s strategy; {"x-docjoin-cost": "commands"} lists every command.',
      );
      await runUntil(() => document.querySelector('[data-field="Book.authors"]') !== null);
      expect(await cell('Book.authors', 'strategy')).toBe('snapshot');
      // Every author of the two books came from the snapshot: 5 hits, no miss, no query.
      expect(await cell('Book.authors', 'snapshot')).toBe('5 / 0');
      expect(await cell('Book.authors', 'roundTrips')).toBe('0');
      expect(await total('sent')).toMatch(/^1 round trip, 2 documents, \d+ bytes in \d+ ms$/);
      expect(await total('estimated')).toBe('at most 1 round trip, 2 documents');
      expect(await total('naive')).toBe('1 round trip');
      await page.waitForFunction(() => (document.querySelector('.graphiql-response')?.textContent ?? '').includes('Yukihiro'));
      expect(await editorText('.graphiql-response')).toContain('"name": "Indexing in Action"');
    }, 60_000);

    it('switches Book.authors to the join through a header typed in the headers editor', async () => {
      await typeInto(HEADERS_EDITOR, '{"x-docjoin-strategy": "Book.authors=join"', '{"x-docjoin-strategy": "Book.authors=join"}');
      await runUntil(() => document.querySelector('[data-field="Book.authors"] [data-column="strategy"]')?.textContent === 'join');
      expect(await cell('Book.authors', 'roundTrips')).toBe('1');
      expect(await total('sent')).toMatch(/^2 round trips, 7 documents, \d+ bytes in \d+ ms$/);
      expect(await total('estimated')).toBe('at most 2 round trips, 14 documents');
    }, 60_000);

    it('lists the commands sent when the headers ask for them', async () => {
      await typeInto(HEADERS_EDITOR, '{"x-docjoin-strategy": "Book.authors=join", "x-docjoin-cost": "commands"', '{"x-docjoin-strategy": "Book.authors=join", "x-docjoin-cost": "commands"}');
      await runUntil(() => document.querySelector('.docjoin-cost-commands caption')?.textContent === '2 commands');
      const rows = await commandRows();
      expect(rows.map((row) => row.slice(0, 6))).toEqual([
        ['1', 'books', 'find', '{}', 'Query.books', '2'],
        ['2', 'authors', 'find', '{"_id":{"$in":"?"}}', 'Book.authors', '5'],
      ]);
      expect(rows.map((row) => row[6])).toEqual([expect.stringMatching(/^\d+ ms$/), expect.stringMatching(/^\d+ ms$/)]);
    }, 60_000);

    it("shows a mutation's writes: round trips, documents modified and the fan-out per collection", async () => {
      const author = ((await post('{ authors(first: 1) { id } }')).data!.authors as Array<{ id: string }>)[0]!.id;
      await typeInto(HEADERS_EDITOR, '{"x-docjoin-cost": "summary"', '{"x-docjoin-cost": "summary"}');
      await typeInto(
        QUERY_EDITOR,
        `mutation { renameAuthor(id: "${author}", firstName: "Ida", lastName: "Knuth") { name`,
        `mutation { renameAuthor(id: "${author}", firstName: "Ida", lastName: "Knuth") { name}}`,
      );
      await runUntil(() => document.querySelector('[data-total="writes"]') !== null);
      expect(await totals()).toEqual([
        expect.stringMatching(/^sent: 4 round trips, 1 document, \d+ bytes in \d+ ms$/),
        'estimated: at most 4 round trips, 1 document',
        'naive: 4 round trips',
        'writes: 3 round trips, 11 documents modified in one transaction, 1 attempt',
        'fanOut: authors: 1 document, books: 10 documents',
      ]);
      expect(await page.$('.docjoin-cost-commands')).toBeNull();
    }, 60_000);

    it('says a request was rejected, and why, leaving no earlier numbers on screen when the response has no cost', async () => {
      const header = 'Book.nope=join';
      const refusal = (await post('{ __typename }', { 'x-docjoin-strategy': header })).errors![0]!;
      await typeInto(HEADERS_EDITOR, `{"x-docjoin-strategy": "${header}"`, `{"x-docjoin-strategy": "${header}"}`);
      await runUntil(() => document.querySelector('.docjoin-cost-outcome') !== null);
      expect(await outcome()).toBe(`Rejected: BAD_USER_INPUT: ${refusal.message}`);
      expect(refusal.message).toMatch(/^x-docjoin-strategy: unknown field "Book.nope"/);
      expect(await totals()).toEqual([]);
      expect(await page.$('[data-field]')).toBeNull();
    }, 60_000);

    it('says an operation over a cost limit was rejected before execution, with the refusal', async () => {
      const query = '{ books(first: 100) { authors { books { authors { books { name } } } } } }';
      const refusal = (await post(query)).errors![0]!;
      expect(refusal.extensions.code).toBe('COST_LIMIT_EXCEEDED');
      await typeInto(HEADERS_EDITOR, '{', '{}');
      await typeInto(QUERY_EDITOR, '{ books(first: 100) { authors { books { authors { books { name', '{ books(first: 100) { authors { books { authors { books { name}}}}}}');
      await runUntil(() => document.querySelector('.docjoin-cost-outcome')?.textContent?.startsWith('Rejected: COST_LIMIT_EXCEEDED') === true);
      expect(await outcome()).toBe(`Rejected: COST_LIMIT_EXCEEDED: ${refusal.message}`);
      expect(await totals()).toEqual([]);
    }, 60_000);

    it('says an operation failed in execution, with what it cost, then shows the next numbers alone', async () => {
      await typeInto(QUERY_EDITOR, '{ books(first: 1000) { name', '{ books(first: 1000) { name}}');
      await runUntil(() => document.querySelector('.docjoin-cost-outcome')?.getAttribute('data-outcome') === 'failed');
      expect(await outcome()).toBe('Failed: BAD_USER_INPUT: first must be between 0 and 100, got 1000');
      expect(await total('sent')).toBe('0 round trips, 0 documents, 0 bytes in 0 ms');
      await typeInto(QUERY_EDITOR, '{ authors(first: 1) { name', '{ authors(first: 1) { name}}');
      await runUntil(() => document.querySelector('.docjoin-cost-outcome') === null);
      expect(await total('sent')).toMatch(/^1 round trip, 1 document, \d+ bytes in \d+ ms$/);
      expect(await page.$eval('.docjoin-cost-totals + p', (element) => element.textContent)).toBe('No relation field was read.');
      await page.keyboard.press('Escape');
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: resolve(SCREENSHOT_DIR, 'ide.png') });
    }, 60_000);

    it('loaded everything from the gateway, with no error in the console', () => {
      expect(elsewhere).toEqual([]);
      expect(consoleErrors).toEqual([]);
    });
  });
});
