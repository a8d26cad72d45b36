import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codegenProcess } from '../../support/codegen-process';
import { demoScratchFolder } from '../../support/demo-project';

/**
 * `docjoin codegen` writes a folder target (one ending in `/`), and removes from it what it generated
 * there before (the folder's manifest lists it) and no longer does; every other file in it is left
 * alone. A target that is the project folder, lies outside it, or holds the project's own files is
 * refused, before anything is written or removed.
 */
describe('docjoin codegen folder targets', () => {
  let project: string;

  beforeEach(() => {
    project = demoScratchFolder('codegen-targets-');
    mkdirSync(join(project, 'schema'));
    writeFileSync(join(project, 'schema', 'note.graphql'), 'type Note @collection(name: "notes") { id: ID! text: String! }\ntype Query { notes: [Note!]! @list }\n');
    writeFileSync(join(project, 'docjoin.config.json'), JSON.stringify({ schema: 'schema', codegen: { config: 'codegen.yml' } }));
    writeFileSync(join(project, 'notes.txt'), 'hand-written, not generated\n');
    symlinkSync('.', join(project, 'here'));
    symlinkSync('..', join(project, 'up'));
  });

  afterEach(() => {
    rmSync(project, { recursive: true, force: true });
  });

  async function codegenWith(target: string): Promise<{ code: number; err: string }> {
    writeFileSync(join(project, 'codegen.yml'), `schema: schema.public.graphql\ngenerates:\n  ${JSON.stringify(target)}:\n    preset: client\n    documents: []\n`);
    return codegenProcess(project, join(project, 'docjoin.config.json'));
  }

  it.each([
    ['./', 'is the project folder itself'],
    ['gen/../', 'is the project folder itself'],
    ['../', 'is outside the project folder'],
    ['schema/', 'holds schema/note.graphql'],
    // Through a symbolic link to the project folder, as the clearing would follow it.
    ['here/', 'is the project folder itself'],
    ['here/schema/', 'holds schema/note.graphql'],
    ['up/', 'is outside the project folder'],
  ])('refuses %s in one line, removing nothing', async (target, why) => {
    const { code, err } = await codegenWith(target);
    expect(code).toBe(2);
    expect(err).toBe(
      `codegen: the generates target "${target}" ${why}; docjoin codegen writes a folder target and removes what it generated there and no longer does, so give the output a folder of its own inside the project (e.g. generated/client/)\n`,
    );
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('hand-written, not generated\n');
    expect(existsSync(join(project, 'schema', 'note.graphql'))).toBe(true);
    expect(existsSync(join(project, 'schema.public.graphql'))).toBe(false);
  });

  it.each([
    ['schema/note.graphql', 'schema/note.graphql'],
    ['here/schema/note.graphql', 'schema/note.graphql'],
    ['docjoin.config.json', 'docjoin.config.json'],
    ['codegen.yml', 'codegen.yml'],
    ['package.json', 'package.json'],
    ['schema.public.graphql', 'schema.public.graphql'],
  ])('refuses the file target %s, one of the project\'s own files, in one line, overwriting nothing', async (target, own) => {
    writeFileSync(join(project, 'package.json'), '{}\n');
    writeFileSync(join(project, 'codegen.yml'), `schema: schema.public.graphql\ngenerates:\n  ${JSON.stringify(target)}:\n    plugins: [typescript]\n`);
    const before = readFileSync(join(project, own === 'schema.public.graphql' ? 'codegen.yml' : own), 'utf8');
    const { code, err } = await codegenProcess(project, join(project, 'docjoin.config.json'));
    expect([code, err]).toEqual([
      2,
      `codegen: the generates target "${target}" is ${own}, which docjoin codegen would overwrite with generated code; give the output a file of its own (e.g. generated/types.ts)\n`,
    ]);
    expect(readFileSync(join(project, own === 'schema.public.graphql' ? 'codegen.yml' : own), 'utf8')).toBe(before);
  });

  it('refuses an SDL file target in the schema folder, which the project would read as part of its schema, writing nothing', async () => {
    writeFileSync(join(project, 'codegen.yml'), 'schema: schema.public.graphql\ngenerates:\n  schema/public.graphql:\n    plugins: [schema-ast]\n  generated/schema.graphql:\n    plugins: [schema-ast]\n');
    const { code, err } = await codegenProcess(project, join(project, 'docjoin.config.json'));
    expect([code, err]).toEqual([
      2,
      'codegen: the generates target "schema/public.graphql" is an SDL file in schema/, whose SDL files the project reads as its schema; give the output a file outside that folder (e.g. generated/schema.graphql)\n',
    ]);
    expect(existsSync(join(project, 'schema', 'public.graphql'))).toBe(false);
  });

  it.each([
    ['schema/note.graphql', 'is schema/note.graphql, which docjoin codegen would overwrite with generated code; give the output a file of its own (e.g. schema.public.graphql)'],
    ['package.json', 'is package.json, which docjoin codegen would overwrite with generated code; give the output a file of its own (e.g. schema.public.graphql)'],
    ['schema/public.graphql', 'is an SDL file in schema/, whose SDL files the project reads as its schema; give the output a file outside that folder (e.g. schema.public.graphql)'],
  ])('refuses codegen.publicSchema "%s", which would replace or join the project\'s own files, writing nothing', async (publicSchema, why) => {
    writeFileSync(join(project, 'package.json'), '{}\n');
    writeFileSync(join(project, 'docjoin.config.json'), JSON.stringify({ schema: 'schema', codegen: { publicSchema } }));
    const { code, err } = await codegenProcess(project, join(project, 'docjoin.config.json'));
    expect([code, err]).toEqual([2, `codegen: codegen.publicSchema "${publicSchema}" ${why}\n`]);
    expect(readFileSync(join(project, 'package.json'), 'utf8')).toBe('{}\n');
    expect(readFileSync(join(project, 'schema', 'note.graphql'), 'utf8')).toContain('@collection(name: "notes")');
    expect(existsSync(join(project, 'schema', 'public.graphql'))).toBe(false);
  });

  it('refuses the project folder before graphql-codegen runs, whose own error would hide why (the README config\'s documents glob)', async () => {
    mkdirSync(join(project, 'operations'));
    writeFileSync(join(project, 'operations', 'notes.graphql'), 'query Notes { notes { id text } }\n');
    writeFileSync(join(project, 'codegen.yml'), 'schema: schema.public.graphql\ndocuments: operations/**/*.graphql\ngenerates:\n  ./:\n    preset: client\n');
    const { code, err } = await codegenProcess(project, join(project, 'docjoin.config.json'));
    expect([code, err]).toEqual([
      2,
      'codegen: the generates target "./" is the project folder itself; docjoin codegen writes a folder target and removes what it generated there and no longer does, so give the output a folder of its own inside the project (e.g. generated/client/)\n',
    ]);
    expect(existsSync(join(project, 'schema.public.graphql'))).toBe(false);
  });

  it('refuses, writing nothing, a schema docjoin serve would refuse (a @counter of a misspelt list), so codegen --check in CI catches it', async () => {
    writeFileSync(join(project, 'schema', 'note.graphql'), 'type Note @collection(name: "notes") { id: ID! text: String! count: Int! @counter(of: "Note.txt") }\ntype Query { notes: [Note!]! @list }\n');
    const { code, err } = await codegenWith('generated/client/');
    expect(code).toBe(2);
    expect(err).toMatch(/^codegen: Invalid storage directives: - Note\.count: @counter\(of: "Note\.txt"\)[^\n]*\n$/);
    expect(existsSync(join(project, 'schema.public.graphql'))).toBe(false);
  });

  it('types a root field whose resolver is not written yet: generating its types comes first', async () => {
    writeFileSync(join(project, 'schema', 'note.graphql'), 'type Note @collection(name: "notes") { id: ID! text: String! }\ntype Query { notes: [Note!]! @list noteOfTheDay: Note }\ntype Mutation { pinNote(id: ID!): Note }\n');
    const { code, err } = await codegenWith('generated/client/');
    expect([code, err]).toEqual([0, '']);
    const written = readFileSync(join(project, 'schema.public.graphql'), 'utf8');
    expect([written.includes('  noteOfTheDay: Note\n'), written.includes('  pinNote(id: ID!): Note\n')]).toEqual([true, true]);
    expect(existsSync(join(project, 'generated/client/graphql.ts'))).toBe(true);
  });

  it('writes a folder of its own inside the project', async () => {
    const { code, err } = await codegenWith('generated/client/');
    expect([code, err]).toEqual([0, '']);
    expect(existsSync(join(project, 'generated', 'client', 'graphql.ts'))).toBe(true);
    expect(existsSync(join(project, 'notes.txt'))).toBe(true);
  });

  it('leaves a hand-written module in the folder target alone, and --check does not call it stale', async () => {
    mkdirSync(join(project, 'src'));
    writeFileSync(join(project, 'src', 'resolvers.mjs'), 'export const resolvers = {};\n');
    expect(await codegenWith('src/')).toEqual({ code: 0, err: '' });
    expect(readFileSync(join(project, 'src', 'resolvers.mjs'), 'utf8')).toBe('export const resolvers = {};\n');
    expect(readFileSync(join(project, 'src', '.docjoin-codegen'), 'utf8').split('\n').slice(1)).toEqual(['fragment-masking.ts', 'gql.ts', 'graphql.ts', 'index.ts', '']);
    // A second run, and the check, see the same.
    expect(await codegenWith('src/')).toEqual({ code: 0, err: '' });
    expect(await codegenProcess(project, join(project, 'docjoin.config.json'), ['--check'])).toMatchObject({ code: 0, err: '' });
    expect(existsSync(join(project, 'src', 'resolvers.mjs'))).toBe(true);
  });

  it('removes what an earlier run generated and this one does not, which --check calls orphaned first; a manifest line leading out of the folder, through a link or at a folder names nothing', async () => {
    expect(await codegenWith('generated/client/')).toEqual({ code: 0, err: '' });
    const client = join(project, 'generated', 'client');
    const manifest = join(client, '.docjoin-codegen');
    mkdirSync(join(client, 'old'));
    writeFileSync(join(client, 'old', 'types.ts'), 'export type Old = 1;\n');
    mkdirSync(join(client, 'kept'));
    // A link out of the folder: a file reached through it is not one codegen wrote there.
    symlinkSync(project, join(client, 'out'));
    writeFileSync(manifest, `${readFileSync(manifest, 'utf8')}./old/types.ts\r\n../../notes.txt\nout/notes.txt\nkept\n`);
    const check = await codegenProcess(project, join(project, 'docjoin.config.json'), ['--check']);
    expect(check.code).toBe(1);
    expect(check.err.split('\n').slice(0, 3)).toEqual(['Generated files are out of date with the SDL and the operations (2):', '  changed  generated/client/.docjoin-codegen', '  orphaned generated/client/old/types.ts']);
    expect(await codegenWith('generated/client/')).toEqual({ code: 0, err: '' });
    // The file goes, and the folder it leaves empty; the rest stays.
    expect(existsSync(join(client, 'old'))).toBe(false);
    expect([existsSync(join(client, 'kept')), existsSync(join(client, 'out'))]).toEqual([true, true]);
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('hand-written, not generated\n');
  });
});
