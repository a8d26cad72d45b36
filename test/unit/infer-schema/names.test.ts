import { camelCase, fieldNameOf, pascalCase, relationNameOf, singular, typeNameOf, uniqueName } from '../../../src/infer-schema/names';

describe('names for collections and keys', () => {
  test.each([
    ['people', 'Person'],
    ['posts', 'Post'],
    ['logMessages', 'LogMessage'],
    ['log_messages', 'LogMessage'],
    ['order-lines', 'OrderLine'],
    ['categories', 'Category'],
    ['addresses', 'Address'],
    ['boxes', 'Box'],
    ['status', 'Status'],
    ['inventory', 'Inventory'],
    ['PEOPLE', 'Person'],
    ['2024_events', '_2024Event'],
  ])('collection %s → type %s', (collection, type) => {
    expect(typeNameOf(collection)).toBe(type);
  });

  test('singular keeps what is not an English plural', () => {
    expect(['analysis', 'address', 'bus', 'series'].map(singular)).toEqual(['analysis', 'address', 'bus', 'series']);
    expect(singular('Children')).toBe('Child');
  });

  test.each([
    ['postId', 'post'],
    ['post_id', 'post'],
    ['ownerID', 'owner'],
    ['taskIds', 'tasks'],
    ['tag_ids', 'tags'],
    ['author', undefined],
    ['paid', undefined],
    ['_id', undefined],
  ])('a reference at %s is named %s', (key, name) => {
    expect(relationNameOf(key)).toBe(name);
  });

  test('a key GraphQL refuses becomes a name it accepts', () => {
    expect(['first-name', '__v', '2fa', 'héllo', 'ok_name', '$'].map(fieldNameOf)).toEqual(['first_name', '_v', '_2fa', 'h_llo', 'ok_name', '_field']);
  });

  test('cases and numbered names', () => {
    expect(pascalCase('recent_comments')).toBe('RecentComments');
    expect(camelCase('RecentComments')).toBe('recentComments');
    const taken = new Set(['post']);
    expect([uniqueName('post', taken), uniqueName('post', taken), uniqueName('tag', taken)]).toEqual(['post2', 'post3', 'tag']);
  });
});

it('camelCase of a name without ASCII letters or digits is empty, for the caller to fall back', () => {
  expect([camelCase('заказы'), camelCase('日本'), relationNameOf('автор_id')]).toEqual(['', '', undefined]);
});
