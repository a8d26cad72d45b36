import { describeStaleFiles, findStaleFiles } from '../../../src/codegen/stale-files';

describe('findStaleFiles', () => {
  const expected = new Map([
    ['schema.public.graphql', 'type Query { a: Int }\n'],
    ['src/generated/client/graphql.ts', 'export type A = 1;\n'],
    ['src/generated/resolvers-types.ts', 'export type R = 1;\n'],
  ]);

  it('finds nothing when every file matches byte for byte', () => {
    expect(findStaleFiles(expected, new Map(expected))).toEqual([]);
  });

  it('reports changed, missing and orphaned files in path order', () => {
    const onDisk = new Map([
      ['schema.public.graphql', 'type Query { a: Int }'],
      ['src/generated/client/graphql.ts', 'export type A = 1;\n'],
      ['src/generated/old-types.ts', 'export {};\n'],
    ]);
    expect(findStaleFiles(expected, onDisk)).toEqual([
      { path: 'schema.public.graphql', reason: 'changed' },
      { path: 'src/generated/old-types.ts', reason: 'orphaned' },
      { path: 'src/generated/resolvers-types.ts', reason: 'missing' },
    ]);
  });
});

describe('describeStaleFiles', () => {
  it('lists each stale file with its reason, then how to fix it', () => {
    const message = describeStaleFiles([
      { path: 'schema.public.graphql', reason: 'changed' },
      { path: 'src/generated/old-types.ts', reason: 'orphaned' },
    ]);
    expect(message).toBe(
      [
        'Generated files are out of date with the SDL and the operations (2):',
        '  changed  schema.public.graphql',
        '  orphaned src/generated/old-types.ts',
        'Run `docjoin codegen` and commit the result.',
      ].join('\n'),
    );
  });
});
