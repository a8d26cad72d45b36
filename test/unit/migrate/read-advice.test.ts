import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdviceFileError, readAdvice } from '../../../src/migrate/read-advice';

describe('readAdvice', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'docjoin-read-advice-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('says why advise did not give the change it considered for a field it keeps', () => {
    const file = join(folder, 'advice.json');
    const because = 'on the recorded workload it costs 12 ms of MongoDB commands more than it saves (+3% of 400); a change must save more than 1% (minNetSavingShare)';
    writeFileSync(file, JSON.stringify({ advice: { fields: [{ coordinate: 'Review.product', kind: 'keep', change: 'keep the current shape', rejected: { kind: 'add-snapshot', because } }] } }));
    expect(() => readAdvice(file, 'Review.product')).toThrow(
      new AdviceFileError(`--advice ${file}: the advice for Review.product is keep (keep the current shape); advise considered add-snapshot and did not give it: ${because}; migrate applies widen-snapshot, add-snapshot, drop-snapshot, add-counter and add-total`),
    );
  });

  it('turns add-total advice into --add-total of its total field, over the advised list, summing its field', () => {
    const file = join(folder, 'total.json');
    writeFileSync(file, JSON.stringify({ advice: { fields: [{ coordinate: 'Author.books', kind: 'add-total', change: 'keep the sum', totalField: 'Author.pagesTotal', summedField: 'pages' }] } }));
    expect(readAdvice(file, 'Author.books')).toEqual({ kind: 'add-total', coordinate: 'Author.pagesTotal', of: 'Author.books', sum: 'pages' });
    writeFileSync(file, JSON.stringify({ advice: { fields: [{ coordinate: 'Author.books', kind: 'add-total', change: 'keep the sum' }] } }));
    expect(() => readAdvice(file, 'Author.books')).toThrow(`--advice ${file}: the add-total advice for Author.books has no totalField (Type.field) or summedField (a field name)`);
  });

  it('refuses names an edited advice file gives that are no GraphQL names, before they reach the SDL', () => {
    const file = join(folder, 'edited.json');
    const advising = (advice: Record<string, unknown>) => writeFileSync(file, JSON.stringify({ advice: { fields: [{ coordinate: 'Author.books', change: 'edited', ...advice }] } }));
    advising({ kind: 'add-total', totalField: 'Author.t(x: Int)', summedField: 'pages' });
    expect(() => readAdvice(file, 'Author.books')).toThrow(`--advice ${file}: the add-total advice for Author.books has no totalField (Type.field) or summedField (a field name)`);
    advising({ kind: 'add-total', totalField: 'Author.pagesTotal', summedField: 'pages }' });
    expect(() => readAdvice(file, 'Author.books')).toThrow(new AdviceFileError(`--advice ${file}: the add-total advice for Author.books has no totalField (Type.field) or summedField (a field name)`));
    advising({ kind: 'add-counter', counterField: 'Author.' });
    expect(() => readAdvice(file, 'Author.books')).toThrow(new AdviceFileError(`--advice ${file}: the add-counter advice for Author.books has no counterField (Type.field)`));
    advising({ kind: 'widen-snapshot', snapshotFields: ['name', 'bio @x'] });
    expect(() => readAdvice(file, 'Author.books')).toThrow(new AdviceFileError(`--advice ${file}: the widen-snapshot advice for Author.books has no snapshotFields (field names)`));
  });
});
