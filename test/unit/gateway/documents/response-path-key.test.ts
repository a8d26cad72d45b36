import type { ResponsePath } from 'graphql';
import { ancestorPathKeys, responsePathKey } from '../../../../src/gateway/documents/response-path-key';

/** A path as graphql-js links it: each level points at the one above. */
function pathOf(...keys: Array<string | number>): ResponsePath {
  let path: ResponsePath | undefined;
  for (const key of keys) path = { prev: path, key, typename: undefined };
  return path!;
}

describe('response path keys', () => {
  it('names a path by its keys, whichever objects hold it', () => {
    expect(responsePathKey(pathOf('people', 3, 'owner'))).toBe('people.3.owner');
    expect(responsePathKey(pathOf('people', 3, 'owner'))).toBe(responsePathKey(pathOf('people', 3, 'owner')));
    expect(responsePathKey(pathOf('books'))).toBe('books');
  });

  it('lists the keys of the paths above, the root field first, without the path itself', () => {
    expect(ancestorPathKeys(pathOf('people', 3, 'tasks', 0, 'owner'))).toEqual(['people', 'people.3', 'people.3.tasks', 'people.3.tasks.0']);
    expect(ancestorPathKeys(pathOf('books'))).toEqual([]);
  });
});
