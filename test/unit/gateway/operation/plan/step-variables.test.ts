import { selectionReadsVariables, stepReadsVariables } from '../../../../../src/gateway/operation/plan/step-variables';
import { demoSchema, stepAt } from '../../support/demo-schema';

describe('stepReadsVariables', () => {
  const schema = demoSchema();
  it('is true when the field or a field below it has a variable argument, anywhere in its value', () => {
    expect(stepReadsVariables(stepAt(schema, 'query ($n: Int) { books(first: $n) { name } }', ['books']).step)).toBe(true);
    expect(stepReadsVariables(stepAt(schema, 'query ($n: Int) { hosts { name logs(first: $n) { message } } }', ['hosts']).step)).toBe(true);
    expect(stepReadsVariables(stepAt(schema, 'query ($n: Int) { hosts { name logs(first: $n) { message } } }', ['hosts', 'logs']).step)).toBe(true);
  });
  it('is false when every argument below it is a literal (or unused variables sit elsewhere)', () => {
    expect(stepReadsVariables(stepAt(schema, '{ hosts { name logs(first: 5) { message } } }', ['hosts']).step)).toBe(false);
    expect(stepReadsVariables(stepAt(schema, 'query ($n: Int) { a: hosts(first: $n) { name } b: hosts { logs(first: 2) { message } } }', ['b']).step)).toBe(false);
  });
});

describe('selectionReadsVariables', () => {
  const schema = demoSchema();
  it("leaves the field's own arguments out: only a variable below it counts", () => {
    expect(selectionReadsVariables(stepAt(schema, 'query ($n: Int) { books(first: $n) { name } }', ['books']).step)).toBe(false);
    expect(selectionReadsVariables(stepAt(schema, 'query ($n: Int) { hosts(first: $n) { logs(first: 2) { message } } }', ['hosts']).step)).toBe(false);
    expect(selectionReadsVariables(stepAt(schema, 'query ($n: Int) { hosts { name logs(first: $n) { message } } }', ['hosts']).step)).toBe(true);
  });
});
