import type { DroppedSnapshot } from '../../../src/migrate/drop-snapshot-copies';
import { keptFieldsNote } from '../../../src/migrate/kept-fields-note';

const dropped: DroppedSnapshot = { coordinate: 'Book.authors', collection: 'books', path: 'authors', key: 'id', copiedFields: ['name'], targetType: 'Author' };
const kept = (names: string[], where: { inObjects?: boolean; inArrays?: boolean; more?: boolean }) => ({ names, more: false, inObjects: false, inArrays: false, ...where });

describe('the note on the fields --drop-snapshot keeps', () => {
  it('unsets a field of a lone copy by its path', () => {
    expect(keptFieldsNote(dropped, kept(['role'], { inObjects: true }), false)).toBe(
      'kept in the copies, as Author declares no such field: role. If an older schema copied it (personal data, perhaps), $unset "authors.role" by hand',
    );
  });

  it('unsets the fields of copies in an array through every element, and says what a dry run would keep', () => {
    expect(keptFieldsNote(dropped, kept(['email', 'role'], { inArrays: true }), true)).toBe(
      'would keep in the copies, as Author declares no such fields: email, role. If an older schema copied them (personal data, perhaps), $unset "authors.$[].email", "authors.$[].role" by hand',
    );
  });

  it('gives both forms when some documents hold one copy and others an array', () => {
    expect(keptFieldsNote(dropped, kept(['role'], { inObjects: true, inArrays: true }), false)).toBe(
      'kept in the copies, as Author declares no such field: role. If an older schema copied it (personal data, perhaps), $unset "authors.role" where "authors" holds one copy, and "authors.$[].role" where it holds an array of them by hand',
    );
  });

  it('says when there were more names than it lists', () => {
    expect(keptFieldsNote(dropped, kept(['a', 'b'], { inObjects: true, more: true }), false)).toBe(
      'kept in the copies, as Author declares no such fields: a, b, and more (only the first 2 names found are listed). If an older schema copied them (personal data, perhaps), $unset "authors.a", "authors.b" by hand',
    );
  });
});
