import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codegenProcess } from '../../support/codegen-process';
import { demoScratchFolder } from '../../support/demo-project';

/**
 * A codegen setting or graphql-codegen config that cannot work is the project's configuration: one
 * line naming the setting or the file, exit 2, nothing written; never a stack, never silently nothing.
 */
describe('docjoin codegen: a wrong codegen setting or config', () => {
  let project: string;

  beforeAll(() => {
    project = demoScratchFolder('codegen-config-');
    mkdirSync(join(project, 'schema'));
    writeFileSync(join(project, 'schema', 'note.graphql'), 'type Note @collection(name: "notes") { id: ID! text: String! }\ntype Query { notes: [Note!]! @list }\n');
  });

  afterAll(() => {
    rmSync(project, { recursive: true, force: true });
  });

  async function codegenWith(codegen: unknown, codegenYml?: string): Promise<{ code: number; err: string }> {
    writeFileSync(join(project, 'docjoin.config.json'), JSON.stringify({ schema: 'schema', codegen }));
    if (codegenYml === undefined) rmSync(join(project, 'codegen.yml'), { force: true });
    else writeFileSync(join(project, 'codegen.yml'), codegenYml);
    return codegenProcess(project, join(project, 'docjoin.config.json'));
  }

  it('refuses a codegen setting that is no object, or a path that is no string', async () => {
    expect(await codegenWith('codegen.yml')).toEqual({
      code: 2,
      err: `codegen: docjoin.config.json: codegen must be { publicSchema?, config?, costDirectives? }, e.g. codegen: { config: 'codegen.yml' }, got "codegen.yml"\n`,
    });
    expect(await codegenWith({ publicSchema: 42 })).toEqual({ code: 2, err: "codegen: docjoin.config.json: codegen.publicSchema must be a file's path, relative to the config's folder, got 42\n" });
  });

  it('names a codegen config that does not exist, or that graphql-codegen cannot read or run', async () => {
    expect(await codegenWith({ config: 'codegen.yml' })).toEqual({
      code: 2,
      err: "codegen: the config's codegen.config (codegen.yml) does not exist; write a graphql-codegen config there, or point codegen.config at yours\n",
    });
    const unreadable = await codegenWith({ config: 'codegen.yml' }, 'schema: [unclosed\n');
    expect(unreadable.code).toBe(2);
    expect(unreadable.err).toMatch(/^codegen: the config's codegen\.config \(codegen\.yml\): YAML Error in [^\n]*codegen\.yml[^\n]*\n$/);
    const noGenerates = await codegenWith({ config: 'codegen.yml' }, 'schema: schema.public.graphql\n');
    expect(noGenerates.code).toBe(2);
    expect(noGenerates.err).toMatch(/^codegen: the config's codegen\.config \(codegen\.yml\): Invalid Codegen Configuration! [^\n]*"generates" field[^\n]*\n$/);
    const misspeltPlugin = await codegenWith({ config: 'codegen.yml' }, 'schema: schema.public.graphql\ngenerates:\n  generated/types.ts:\n    plugins: [typescriptt]\n');
    expect(misspeltPlugin.code).toBe(2);
    expect(misspeltPlugin.err).toMatch(/^codegen: the config's codegen\.config \(codegen\.yml\): Unable to find template plugin matching 'typescriptt' Install one of the following packages: [^\n]*\n$/);
  });

  it('says what graphql-codegen could not do in one line, once, without its stack: a syntax error in an operation, one that does not validate (naming where), documents that match nothing (exit 1)', async () => {
    mkdirSync(join(project, 'operations'), { recursive: true });
    writeFileSync(join(project, 'operations', 'notes.graphql'), 'query Notes { notes { \n');
    const twoTargets = 'schema: schema.public.graphql\ndocuments: operations/**/*.graphql\ngenerates:\n  generated/client/:\n    preset: client\n  generated/operations.ts:\n    plugins: [typescript, typescript-operations]\n';
    const broken = await codegenWith({ config: 'codegen.yml' }, twoTargets);
    expect(broken).toEqual({
      code: 1,
      err: 'codegen: Failed to load documents from operations/**/*.graphql: Failed to find any GraphQL type definitions in: operations/**/*.graphql; - Syntax Error: Expected Name, found <EOF>.\n',
    });
    writeFileSync(join(project, 'operations', 'notes.graphql'), 'query Notes {\n  notes { txt }\n}\n');
    expect(await codegenWith({ config: 'codegen.yml' }, twoTargets)).toEqual({
      code: 1,
      err: 'codegen: GraphQL Document Validation failed with 1 errors; Error 0: Cannot query field "txt" on type "Note". Did you mean "text"? (at operations/notes.graphql:2:11)\n',
    });
    rmSync(join(project, 'operations'), { recursive: true, force: true });
    const nothing = await codegenWith({ config: 'codegen.yml' }, twoTargets.replace('documents: operations', 'documents: ops'));
    expect(nothing).toEqual({ code: 1, err: 'codegen: Unable to find any GraphQL type definitions for the following pointers: - ops/**/*.graphql\n' });
  });
});
