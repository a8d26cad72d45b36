import { markPresortedGroups } from '../../../../src/embedded-mongo/query/presorted-groups';
import { PRESORTED } from '../../../../src/embedded-mongo/query/presorted-mark';

const sortBy = { time: -1, _id: -1 };
const group = { $group: { _id: '$host.id', docs: { $topN: { n: 5, sortBy, output: '$$ROOT' } }, count: { $sum: 1 } } };

function presortedFields(pipeline: Record<string, unknown>[]): string[] {
  const stage = pipeline.find((s) => '$group' in s) as { $group: Record<string, Record<string, Record<string | symbol, unknown>>> } | undefined;
  if (!stage) return [];
  return Object.entries(stage.$group)
    .filter(([field, spec]) => field !== '_id' && typeof spec === 'object' && Object.values(spec).some((pick) => pick[PRESORTED] === true))
    .map(([field]) => field);
}

describe('markPresortedGroups', () => {
  it('marks a $topN whose sortBy equals a preceding $sort, through $match, $limit and plain $projects keeping the sort paths', () => {
    const pipeline = [{ $sort: sortBy }, { $match: { a: 1 } }, { $limit: 100 }, { $project: { _id: 1, 'host.id': 1, time: 1 } }, group, { $unwind: '$docs' }];
    const marked = markPresortedGroups(pipeline, undefined);
    expect(presortedFields(marked)).toEqual(['docs']);
    expect(presortedFields(pipeline)).toEqual([]); // the input pipeline is left as it was
    expect(marked[5]).toBe(pipeline[5]);
  });

  it('uses the order the input arrives in when storage ran the $sort', () => {
    expect(presortedFields(markPresortedGroups([{ $project: { time: 1 } }, group], sortBy))).toEqual(['docs']);
    expect(presortedFields(markPresortedGroups([group], undefined))).toEqual([]);
  });

  it('leaves the group alone when the order differs or a stage may change it', () => {
    expect(presortedFields(markPresortedGroups([{ $sort: { time: -1 } }, group], undefined))).toEqual([]);
    expect(presortedFields(markPresortedGroups([{ $sort: { _id: -1, time: -1 } }, group], undefined))).toEqual([]);
    expect(presortedFields(markPresortedGroups([{ $sort: { time: 1, _id: -1 } }, group], undefined))).toEqual([]);
    expect(presortedFields(markPresortedGroups([{ $sort: sortBy }, { $project: { message: 1 } }, group], undefined))).toEqual([]);
    expect(presortedFields(markPresortedGroups([{ $sort: sortBy }, { $addFields: { time: 1 } }, group], undefined))).toEqual([]);
    expect(presortedFields(markPresortedGroups([{ $sort: sortBy }, { $unwind: '$x' }, group], undefined))).toEqual([]);
  });
});
