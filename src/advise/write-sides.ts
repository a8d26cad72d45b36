import type { IResolvers } from '@graphql-tools/utils';
import { buildGatewaySchema, derivedOverViews, derivedValues, referenceLocksOf, withDirectiveTypeDefs, type CollectionListing, type MutationWritePlans } from '../gateway';
import { addSnapshotSdl } from '../schema-edits/add-snapshot-sdl';
import { dropSnapshotSdl, widenSnapshotSdl, type SchemaFile } from '../schema-edits/snapshot-sdl-change';
import { addCounterSdl, addTotalSdl } from '../schema-edits/derived-field-sdl';
import type { StorageChange, WriteSide, WriteSides } from './recommend/write-effect';

/** What the write rules are built from: the project's schema files, resolvers and hand-written write plans. */
export interface WriteSidesProject {
  readonly files: readonly SchemaFile[];
  readonly resolvers: readonly IResolvers[];
  readonly writePlans: MutationWritePlans;
}

/**
 * The write model and write plans of the project's schema, and of the schema each change would leave
 * (the same text edits `docjoin migrate` makes, checked as the gateway's startup checks them). A change
 * whose schema would not start gives why, on one line; so does the project's own schema, when it
 * does not build.
 */
export function writeSidesOf(project: WriteSidesProject): WriteSides | string {
  const before = build(project, project.files, 'the project');
  if (typeof before === 'string') return before;
  const built = new Map<string, WriteSide | string>();
  return {
    before,
    after(change: StorageChange): WriteSide | string {
      const key = JSON.stringify(change);
      let side = built.get(key);
      if (side === undefined) built.set(key, (side = afterChange(project, before, change)));
      return side;
    },
  };
}

/**
 * `sides` with every change refused whose schema derives a value from one of the database's `views`
 * (a copy of a view's rows, a counter or total of them), as the gateway's start on that database refuses
 * it, or keeps one in a view's rows, which migrate's backfill and the writes keeping it cannot write.
 */
export function refusingViews(sides: WriteSides, views: CollectionListing['views']): WriteSides {
  if (views.size === 0) return sides;
  const problems = (side: WriteSide) => derivedOverViews(derivedValues(side.model), views);
  const before = problems(sides.before);
  return {
    before: sides.before,
    after(change: StorageChange): WriteSide | string {
      const side = sides.after(change);
      if (typeof side === 'string') return side;
      const added = problems(side).filter((problem) => !before.includes(problem));
      return added.length > 0 ? `the schema after the change would not start: ${added.join(' ')}` : side;
    },
  };
}

function afterChange(project: WriteSidesProject, before: WriteSide, change: StorageChange): WriteSide | string {
  let edits: readonly SchemaFile[];
  try {
    edits = editsOf(project, before, change);
  } catch (error) {
    return oneLine(error);
  }
  return build(project, project.files.map((source) => edits.find((edit) => edit.file === source.file) ?? source), 'the schema after the change');
}

function editsOf(project: WriteSidesProject, before: WriteSide, change: StorageChange): readonly SchemaFile[] {
  switch (change.kind) {
    case 'widen-snapshot':
      return [widenSnapshotSdl(project.files, change.coordinate, change.fields)];
    case 'add-snapshot':
      return addSnapshotSdl(project.files, before.model.storageMap, change.coordinate, change.fields, undefined).edits;
    case 'drop-snapshot':
      return [dropSnapshotSdl(project.files, change.coordinate)];
    case 'add-counter':
      return [addCounterSdl(project.files, change.counter, change.coordinate)];
    case 'add-total':
      return [addTotalSdl(project.files, change.total, change.coordinate, change.field, change.type)];
    default: {
      const never: never = change;
      throw new Error(`unknown storage change ${JSON.stringify(never)}`);
    }
  }
}

function build(project: WriteSidesProject, files: readonly SchemaFile[], what: string): WriteSide | string {
  try {
    const schema = buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(files.map((source) => source.text)), resolvers: project.resolvers, writePlans: project.writePlans });
    return { model: schema.writeModel, plans: schema.writePlans, locks: referenceLocksOf(schema.writeModel, schema.schema.getMutationType(), schema.writePlans) };
  } catch (error) {
    return `${what} would not start: ${oneLine(error)}`;
  }
}

/** An error's message on one line (a startup error lists its problems one per line). */
function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\n\s*/g, ' ');
}
