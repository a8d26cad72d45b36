import { getNamedType, type GraphQLSchema } from 'graphql';
import type { AnyResolver, FieldPlan, SelectionPlan } from '../plan/owned-plan';
import type { OperationPlan } from '../plan/operation-plan';
import { connectionSteps, type FieldStep, type SelectionStep } from '../plan/selection-tree';
import type { StepFigures } from '../estimate/estimate-operation';
import { planProjection, type PlanningContext } from '../planning/plan-projection';
import type { Projection } from '../planning/projection';
import type { ReadStrategy, RelationField, StorageMap } from '../../startup/storage-map/storage-map-types';
import type { ViewerRows } from './viewer-explanation';

/** What printing a plan reads besides it: where each field lives, the request's strategies and variables, and the estimate's figures. */
export interface PlanPrinting {
  readonly schema: GraphQLSchema;
  readonly storageMap: StorageMap;
  readonly variableValues: Readonly<Record<string, unknown>>;
  strategyFor(field: RelationField): ReadStrategy;
  /** The root resolvers docjoin generated (Ownership.rootResolvers); the others are hand-written. */
  readonly generatedRoots: ReadonlySet<AnyResolver>;
  /** Per step, how it is read and what it adds to the estimate (estimateByField's bySteps). */
  readonly figures: ReadonlyMap<FieldStep, StepFigures>;
  /** Under access rules, the rows of a type the viewer reads (ViewerExplanation.rows). */
  rows?(typeName: string): ViewerRows;
  /** The relation fields the viewer's role reads by join whatever is asked (ViewerExplanation.joins): they have no what-ifs. */
  readonly accessJoins?: ReadonlyMap<string, ReadStrategy>;
}

/**
 * The plan as text, one line per step, indented by level (`docjoin explain --plan`): who runs the
 * operation (docjoin from this tree, or graphql-js and why), its depth, then each field in response
 * order with what reads it. A step that reads from MongoDB gets a second line: its command, the batch it
 * shares, the projection sent, and its round trips and documents in the estimate.
 */
export function printOperationPlan(plan: OperationPlan, printing: PlanPrinting): string {
  const name = plan.operation.name ? ` ${plan.operation.name.value}` : '';
  const runner = plan.owned ? 'docjoin runs it level by level from this tree' : `graphql-js runs it (${plan.refusal ?? 'not owned'})`;
  const lines = [`${plan.operation.operation}${name}: depth ${plan.depth}; ${runner}`];
  const planning: PlanningContext = { schema: printing.schema, fragments: plan.fragments, variableValues: printing.variableValues, storageMap: printing.storageMap, strategyFor: (field) => printing.strategyFor(field) };
  if (plan.owned) printSelection(plan.owned.root, 1, { ...printing, planning }, lines, plan.operation.operation);
  else if (plan.root) printSteps([plan.root], 1, { ...printing, planning }, lines);
  return `${lines.join('\n')}\n`;
}

/** The selection tree of an operation graphql-js runs: each step with the type it is on when the field's type is abstract, and what reads it. */
function printSteps(selections: readonly SelectionStep[], level: number, printing: Printing, lines: string[]): void {
  const indent = '  '.repeat(level);
  for (const selection of selections) {
    const on = selections.length > 1 ? ` (on ${selection.type.name})` : '';
    for (const step of selection.fields) {
      const key = step.responseKey === step.fieldName ? step.fieldName : `${step.responseKey}: ${step.fieldName}`;
      lines.push(...stepLines(`${indent}${key}  ${step.coordinate}${on}${describeRelation(step, printing)}`, step, indent, printing));
      printSteps(step.children, level + 1, printing, lines);
    }
  }
}

type Printing = PlanPrinting & { readonly planning: PlanningContext };

/** `root`: the operation type, when `selection` is the root type's. */
function printSelection(selection: SelectionPlan, level: number, printing: Printing, lines: string[], root?: string): void {
  for (const field of selection.fields) {
    const indent = '  '.repeat(level);
    const described = `${indent}${describeField(field, printing, root)}`;
    lines.push(...(field.kind === 'typename' ? [described] : stepLines(described, field.step, indent, printing)));
    if (field.kind === 'relation') printSelection(field.child, level + 1, printing, lines);
  }
}

function describeField(field: FieldPlan, printing: PlanPrinting, root: string | undefined): string {
  if (field.kind === 'typename') return field.responseKey === '__typename' ? '__typename' : `${field.responseKey}: __typename`;
  const key = field.responseKey === field.fieldName ? field.fieldName : `${field.responseKey}: ${field.fieldName}`;
  const coordinate = `${field.parentType.name}.${field.fieldName}`;
  if (root !== undefined && field.kind !== 'stored') {
    if (!printing.generatedRoots.has(field.resolve)) return `${key}  ${coordinate}, hand-written resolver`;
    const read = printing.storageMap.aggregates.has(coordinate) ? 'generated root: one aggregate' : 'generated root: one find';
    return `${key}  ${coordinate}, ${root === 'mutation' ? 'generated mutation: its write unit, then a read back' : read}`;
  }
  switch (field.kind) {
    case 'stored':
      return `${key}  stored value`;
    case 'resolved':
      // Below the root, only a field of an object a hand-written resolver returned has a resolver that is not docjoin's.
      return field.handWritten ? `${key}  stored value, read as graphql-js reads it (an object from a hand-written resolver)` : `${key}  ${coordinate}, read by docjoin's resolver`;
    case 'relation':
      return `${key}  ${coordinate}${describeRelation(field.step, printing)}`;
    default: {
      const never: never = field;
      throw new Error(`unknown field plan ${JSON.stringify(never)}`);
    }
  }
}

/**
 * A relation's strategy and the ones it declares, and how it is read when that needs no command (an
 * aggregate's too: from its parent's counter); empty for other fields.
 */
function describeRelation(step: FieldStep, printing: PlanPrinting): string {
  const figures = printing.figures.get(step);
  const read = figures?.read;
  const fromCopy = read?.endsWith('no command') ? `: ${read}` : '';
  const relation = printing.storageMap.relations.get(step.coordinate);
  if (!relation) return printing.storageMap.aggregates.has(step.coordinate) ? fromCopy : '';
  const declared = Object.keys(relation.shapes).join(', ');
  if (printing.accessJoins?.has(step.coordinate)) return `, join (declared: ${declared}; the access rules of the viewer's role read it so)`;
  const whatIfs = [...(figures?.whatIfs ?? [])].map(([strategy, roundTrips]) => `by ${strategy}: ${describeChange(roundTrips)}`);
  return `, ${printing.strategyFor(relation)} (declared: ${declared})${fromCopy}${whatIfs.length > 0 ? ` [${whatIfs.join('; ')}]` : ''}`;
}

/** What a what-if changes: the operation's round trips read that way here and below. */
function describeChange(roundTrips: number): string {
  if (roundTrips >= Number.MAX_SAFE_INTEGER) return 'too many round trips to count';
  if (roundTrips === 0) return 'no change';
  return `${roundTrips < 0 ? '−' : '+'}${count(Math.abs(roundTrips), 'round trip')}`;
}

/**
 * A step's line, and the `↳` line under it when it sends a command or rides a batch. The rows the
 * viewer reads of its documents, when its access rules limit them, end the `↳` line, or the step's own
 * line when its documents come with its parent's (a lookup, a copy).
 */
function stepLines(line: string, step: FieldStep, indent: string, printing: Printing): string[] {
  const figures = printing.figures.get(step);
  // An aggregate's documents are its target's, added up in the reply.
  const typeName = storedTypeOf(step, printing)?.typeName ?? printing.storageMap.aggregates.get(step.coordinate)?.targetType;
  const rows = typeName === undefined ? undefined : printing.rows?.(typeName);
  const rowsNote = rows?.kind === 'where' ? `; rows where ${rows.conditions}` : rows?.kind === 'none' ? `; no rows: the role may not read ${typeName} (null with FORBIDDEN here)` : '';
  if (!figures || (figures.roundTrips === 0 && figures.batch === undefined)) return [`${line}${rowsNote}`];
  return [line, `${indent}  ↳ ${describeRead(step, figures, printing)}${rowsNote}`];
}

/** The command a step sends, its batch, the projection of the documents it reads, and its figures. */
function describeRead(step: FieldStep, figures: StepFigures, printing: Printing): string {
  const parts = [figures.read];
  if (figures.batch !== undefined) parts.push(figures.sharesWith ? `in the batch of ${figures.sharesWith}` : `batch ${figures.batch}`);
  const projection = projectionOf(step, printing);
  if (projection) parts.push(`selection's projection ${projection}`);
  if (!figures.sharesWith) parts.push(`est. ${count(figures.roundTrips, 'round trip')}, ≤ ${count(figures.documents, 'document')}`);
  return parts.join('; ');
}

/**
 * The projection the selection below a step needs of its documents (a loader adds its key): of a
 * connection's nodes for a connection; undefined for a leaf, or a type docjoin does not store.
 */
function projectionOf(step: FieldStep, printing: Printing): string | undefined {
  const storedType = step.children.length === 0 ? undefined : storedTypeOf(step, printing);
  if (!storedType) return undefined;
  const selections = storedType.connection ? connectionSteps(step).nodeSelections.flat() : step.children;
  return describeProjection(planProjection(printing.planning, storedType.typeName, selections));
}

/** The stored type a step's documents are (a connection's node type); undefined for a scalar, or a type docjoin does not store. */
function storedTypeOf(step: FieldStep, printing: PlanPrinting): { readonly typeName: string; readonly connection: boolean } | undefined {
  if (!step.definition) return undefined;
  const named = getNamedType(step.definition.type).name;
  const connection = printing.storageMap.connections.get(named);
  const typeName = connection?.nodeType ?? named;
  return printing.storageMap.types.has(typeName) ? { typeName, connection: connection !== undefined } : undefined;
}

/** `{ _id: 1, name: 1, comments: {"$slice":3}, _dj_books_5f0c2a9e13: $lookup books { _id: 1, name: 1 } }` */
function describeProjection(projection: Projection): string {
  const entries = [...projection].map(([path, entry]) => {
    if (entry === 1) return `${path}: 1`;
    if ('slice' in entry) return `${path}: ${JSON.stringify({ $slice: entry.slice })}`;
    return `${path}: $lookup ${entry.lookup.from} ${describeProjection(entry.lookup.projection)}`;
  });
  return `{ ${entries.join(', ')} }`;
}

function count(amount: number, unit: string): string {
  return `${amount.toLocaleString('en')} ${unit}${amount === 1 ? '' : 's'}`;
}
