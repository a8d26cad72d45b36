import type { Document } from 'bson';
import { namedError } from '../protocol/command-error';
import type { Collation } from '../query';

/** A read-only view (MongoDB docs: "Views"): `pipeline` run over `viewOn`, a collection or another view. */
export interface ViewDefinition {
  readonly name: string;
  readonly viewOn: string;
  readonly pipeline: readonly Document[];
  /** The view's default collation; undefined: simple. */
  readonly collation: Collation | undefined;
}

/** A view resolved to the collection underneath it: the pipelines of every view on the way, innermost first. */
export interface ResolvedView {
  readonly collection: string;
  readonly pipeline: Document[];
  readonly collation: Collation | undefined;
}

/** MongoDB's ViewGraph::kMaxViewDepth. */
const MAX_VIEW_DEPTH = 20;

/**
 * The views of every database (what MongoDB keeps in `<db>.system.views`). Views share the
 * namespace of collections; Store keeps the two apart. Definitions are immutable.
 */
export class ViewCatalog {
  private readonly databases = new Map<string, Map<string, ViewDefinition>>();

  get(database: string, name: string): ViewDefinition | undefined {
    return this.databases.get(database)?.get(name);
  }

  list(database: string): ViewDefinition[] {
    return [...(this.databases.get(database)?.values() ?? [])];
  }

  hasDatabase(database: string): boolean {
    return (this.databases.get(database)?.size ?? 0) > 0;
  }

  databaseNames(): string[] {
    return [...this.databases.keys()].filter((database) => this.hasDatabase(database));
  }

  /** 5 GraphContainsCycle when the view's `viewOn` chain leads back to it. */
  assertAcyclic(database: string, definition: ViewDefinition): void {
    const chain = [definition.name];
    for (let on: string | undefined = definition.viewOn; on !== undefined; on = this.get(database, on)?.viewOn) {
      chain.push(on);
      if (on === definition.name) {
        throw namedError('GraphContainsCycle', `View cycle detected: [${chain.map((name) => `${database}.${name}`).join(' => ')}]`);
      }
    }
  }

  /** Adds a view checked by `assertAcyclic` (Store.createView checks, journals, then adds). */
  add(database: string, definition: ViewDefinition): void {
    let views = this.databases.get(database);
    if (views === undefined) {
      views = new Map();
      this.databases.set(database, views);
    }
    views.set(definition.name, definition);
  }

  drop(database: string, name: string): boolean {
    return this.databases.get(database)?.delete(name) ?? false;
  }

  dropDatabase(database: string): void {
    this.databases.delete(database);
  }

  /**
   * The collection under view `name` and the pipeline that turns it into the view, or undefined
   * when `name` is not a view. 165 ViewDepthLimitExceeded past 20 nested views.
   */
  resolve(database: string, name: string): ResolvedView | undefined {
    const top = this.get(database, name);
    if (top === undefined) return undefined;
    const pipelines: (readonly Document[])[] = [];
    let view: ViewDefinition | undefined = top;
    let collection = name;
    for (let depth = 0; view !== undefined; depth++) {
      if (depth >= MAX_VIEW_DEPTH) {
        throw namedError('ViewDepthLimitExceeded', `View depth too deep or view cycle detected. Maximum depth is ${MAX_VIEW_DEPTH}`);
      }
      pipelines.unshift(view.pipeline);
      collection = view.viewOn;
      view = this.get(database, collection);
    }
    return { collection, pipeline: pipelines.flat(), collation: top.collation };
  }
}
