/// <reference lib="dom" />
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { loadProject } from 'docjoin';
import { loadConfig } from '../../src/config/config';
import { startServer, type RunningServer } from '../../src/server/start-server';
import { DEMO_DIR } from '../support/demo-project';
import { testEstimateViolations } from '../support/checked-gateway';

/**
 * docjoin's offline IDE in a real headless Chromium (Debian's `chromium` package, driven by
 * puppeteer-core): the page and every asset come from the gateway, a query runs, a header switches a
 * field's strategy, and the cost panel shows both. `npm run test:browser` runs it alone; without
 * Chromium it is skipped with one line. The last screenshot is saved in test-results/.
 */
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path): path is string => path !== undefined && path !== '' && existsSync(path));
const SCREENSHOT_DIR = resolve(__dirname, '../../test-results');
if (!CHROMIUM) console.log('skipped the IDE browser test: no Chromium (apt-get install -y chromium, or set CHROMIUM_PATH)');
const describeWithChromium = CHROMIUM ? describe : describe.skip;

describeWithChromium('the IDE in headless Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  /** Requests the page made to anywhere but the gateway: must stay empty (the IDE works offline). */
  const elsewhere: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    const project = await loadProject({ cwd: DEMO_DIR });
    server = await startServer(loadConfig({ PORT: '0' }, {}, project.config), project, { onEstimateViolation: testEstimateViolations.record });
    browser = await puppeteer.launch({ executablePath: CHROMIUM!, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    const origin = new URL(server.gateway.url!).origin;
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) elsewhere.push(url);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const origin = () => new URL(server.gateway.url!).origin;
  const cell = (field: string, column: string) => page.$eval(`[data-field="${field}"] [data-column="${column}"]`, (element) => element.textContent);
  const total = (name: string) => page.$eval(`[data-total="${name}"]`, (element) => element.textContent);

  async function run(): Promise<void> {
    await page.click('.graphiql-execute-button');
  }

  it('runs a query and shows the response and its cost per field', async () => {
    const query = '{ books(first: 2) { name authors { name } } }';
    await page.goto(`${origin()}/ide?query=${encodeURIComponent(query)}`, { waitUntil: 'networkidle0' });
    // Ready when the query editor shows the query from the link.
    await page.waitForFunction(() => document.querySelector('.graphiql-query-editor .view-lines')?.textContent?.includes('books'));
    await run();
    await page.waitForSelector('[data-field="Book.authors"]');
    expect(await cell('Book.authors', 'strategy')).toBe('snapshot');
    // Every author of the two books came from the snapshot: 5 hits, no miss, no query.
    expect(await cell('Book.authors', 'snapshot')).toBe('5 / 0');
    expect(await cell('Book.authors', 'roundTrips')).toBe('0');
    expect(await total('Round trips')).toBe('1');
    // Monaco renders spaces as no-break spaces.
    const response = () => page.$eval('.graphiql-response', (element) => (element.textContent ?? '').replace(/\u00a0/g, ' '));
    await page.waitForFunction(() => (document.querySelector('.graphiql-response')?.textContent ?? '').includes('Yukihiro'));
    expect(await response()).toContain('"name": "Indexing in Action"');
  }, 60_000);

  it('switches Book.authors to the join through a header typed in the headers editor', async () => {
    // The headers tab is open (the IDE opens with it); its editor is the one not hidden.
    const headers = '.graphiql-editor-tool .graphiql-editor:not(.hidden) .view-lines';
    await page.waitForSelector(headers);
    await page.click(headers);
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyA');
    await page.keyboard.up('Control');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('{"x-docjoin-strategy": "Book.authors=join"');
    await run();
    await page.waitForFunction(() => document.querySelector('[data-field="Book.authors"] [data-column="strategy"]')?.textContent === 'join');
    expect(await cell('Book.authors', 'roundTrips')).toBe('1');
    expect(await total('Round trips')).toBe('2');
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: resolve(SCREENSHOT_DIR, 'ide.png') });
  }, 60_000);

  it('loaded everything from the gateway, with no error in the console', () => {
    expect(elsewhere).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
