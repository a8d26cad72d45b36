import { ObjectId } from 'mongodb';
import type { Viewer } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * What a write tells a role about fields the role's rule hides: a delete refused because other rows
 * still reference the row names those rows only when the role could have found them itself (it reads
 * every row and may filter by the reference).
 */
const typeDefs = /* GraphQL */ `
  type Query { comments(first: Int = 20): [Comment!]! @list(sort: "text") }
  type Mutation { deleteTopic(id: ID!): ID! @delete(type: "Topic") }
  type Topic @collection(name: "topics") @access(roles: ["member", "staff"], allow: [READ, DELETE], where: [{ field: "owner", claim: "sub" }]) {
    id: ID!
    title: String!
    owner: String!
  }
  "Anonymous feedback: members read the texts, not which topic each is about; staff read both."
  type Comment @collection(name: "comments") @access(roles: ["member"], allow: [READ], hide: ["topic"]) @access(roles: ["staff"], allow: [READ]) {
    id: ID!
    text: String!
    topic: Topic @join(localField: "topicId")
  }
`;
const topic = new ObjectId('0000000000000000000000a1');
const awful = new ObjectId('0000000000000000000000c2');
const as = (role: string): Viewer => ({ role, roles: [role], anonymous: false, subject: 'ann', claims: { sub: 'ann' } });

let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs,
    dbPrefix: 'hidden_fields_in_writes',
    prepare: async (db) => {
      await db.collection('topics').insertOne({ _id: topic, title: 'my manager', owner: 'ann' });
      await db.collection('comments').insertMany([
        { text: 'fine', topicId: new ObjectId() },
        { _id: awful, text: 'awful', topicId: topic },
      ]);
      await db.collection('comments').createIndex({ text: 1, _id: 1 });
      await db.collection('comments').createIndex({ topicId: 1 });
    },
  });
}, 60_000);
afterAll(() => s?.stop());

it('a refused delete names the rows that still reference it only to a role that may see their reference', async () => {
  const remove = (role: string) => s.gateway.execute({ query: `mutation { deleteTopic(id: "${topic.toHexString()}") }` }, { viewer: as(role) });
  const member = await remove('member');
  expect(member.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
    ['BAD_USER_INPUT', `Topic ${topic.toHexString()} is still referenced by comments at topicId; delete or re-point those first`],
  ]);
  const staff = await remove('staff');
  expect(staff.errors?.map((error) => error.message)).toEqual([`Topic ${topic.toHexString()} is still referenced by comments ${awful.toHexString()} at topicId; delete or re-point those first`]);
  expect(await s.db.collection('topics').countDocuments({ _id: topic })).toBe(1);
});

describe('an update setting a field the role may not see', () => {
  const employeeDefs = /* GraphQL */ `
    type Query { employees(first: Int = 20): [Employee!]! @list(sort: "name") }
    type Mutation { updateEmployee(id: ID!, input: EmployeePatch!): Employee! @update }
    type Employee @collection(name: "employees") @access(roles: ["clerk"], allow: [READ], hide: ["onProbation"]) @access(roles: ["clerk"], allow: [UPDATE], readOnly: ["name"]) {
      id: ID!
      name: String!
      desk: String
      onProbation: Boolean!
    }
    input EmployeePatch {
      desk: String
      onProbation: Boolean
    }
  `;
  const eve = new ObjectId('0000000000000000000000e1');
  let employees: SdlGateway;
  beforeAll(async () => {
    employees = await startSdlGateway({
      typeDefs: employeeDefs,
      dbPrefix: 'hidden_update',
      prepare: async (db) => {
        await db.collection('employees').insertOne({ _id: eve, name: 'Eve', desk: 'A', onProbation: true });
        await db.collection('employees').createIndex({ name: 1, _id: 1 });
      },
    });
  }, 60_000);
  afterAll(() => employees?.stop());

  const update = (input: string) => employees.gateway.execute({ query: `mutation { updateEmployee(id: "${eve.toHexString()}", input: ${input}) { id } }` }, { viewer: as('clerk') });

  it('reports the same whatever the row held: its write counts are withheld, so they cannot tell the hidden value', async () => {
    const reports = [];
    for (const held of [true, false]) {
      await employees.db.collection('employees').updateOne({ _id: eve }, { $set: { onProbation: held } });
      const result = await update('{ onProbation: true }');
      expect(result.errors).toBeUndefined();
      reports.push(result.cost?.writes);
    }
    expect(reports[0]).toEqual(reports[1]);
    expect(reports[0]).toMatchObject({ documentsModified: 0, fanOut: {}, withheld: ['employees'] });
    expect((await employees.db.collection('employees').findOne({ _id: eve }))?.onProbation).toBe(true);
  });

  it('still counts an update of fields the role sees', async () => {
    const moved = await update('{ desk: "B" }');
    expect(moved.cost?.writes).toMatchObject({ documentsModified: 1, fanOut: { employees: 1 } });
    expect(moved.cost?.writes?.withheld).toBeUndefined();
  });
});

describe.each([
  {
    where: 'on the type itself',
    sdl: /* GraphQL */ `
      type Person @collection(name: "people") @access(roles: ["clerk"], allow: [READ, UPDATE], hide: ["meta"]) {
        id: ID!
        name: String!
        meta: JSON
        nickname: String @path(path: "meta.nickname")
      }
    `,
    hiddenAt: (value: unknown) => ({ meta: value }),
    path: 'meta.nickname',
    hidden: 'Person.meta',
  },
  {
    where: 'on an embedded type along the path',
    sdl: /* GraphQL */ `
      type Profile @access(roles: ["clerk"], allow: [READ], hide: ["meta"]) { title: String meta: JSON }
      type Person @collection(name: "people") @access(roles: ["clerk"], allow: [READ, UPDATE]) {
        id: ID!
        name: String!
        profile: Profile @embedded
        nickname: String @path(path: "profile.meta.nickname")
      }
    `,
    hiddenAt: (value: unknown) => ({ profile: { meta: value } }),
    path: 'profile.meta.nickname',
    hidden: 'Profile.meta',
  },
])('an update setting a field stored inside a value the role may not see ($where)', ({ sdl, hiddenAt, path, hidden }) => {
  // MongoDB sets the field only where the hidden value is a document: whether it could would tell what that value holds.
  const personDefs = /* GraphQL */ `
    scalar JSON
    type Query { people(first: Int = 20): [Person!]! @list(sort: "name") }
    type Mutation { updatePerson(id: ID!, input: PersonPatch!): Person! @update }
    input PersonPatch { name: String nickname: String }
    ${sdl}
  `;
  const [withDocument, withString] = [new ObjectId('0000000000000000000000a1'), new ObjectId('0000000000000000000000a2')];
  let people: SdlGateway;
  beforeAll(async () => {
    people = await startSdlGateway({
      typeDefs: personDefs,
      dbPrefix: 'hidden_inside_update',
      prepare: async (db) => {
        await db.collection('people').insertMany([
          { _id: withDocument, name: 'A', ...hiddenAt({ salary: 1 }) },
          { _id: withString, name: 'B', ...hiddenAt('a string') },
        ]);
        await db.collection('people').createIndex({ name: 1, _id: 1 });
      },
    });
  }, 60_000);
  afterAll(() => people?.stop());

  it('is refused alike whatever the value holds, with nothing written', async () => {
    for (const id of [withDocument, withString]) {
      const result = await people.gateway.execute({ query: `mutation { updatePerson(id: "${id.toHexString()}", input: { nickname: "n" }) { id } }` }, { viewer: as('clerk') });
      expect(result.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
        ['FORBIDDEN', `Mutation.updatePerson sets "${path}", inside ${hidden}, which is hidden from role "clerk": whether it can be set would tell what that value holds; set it in a mutation run by a role that reads ${hidden}`],
      ]);
    }
    const stored = await people.db.collection('people').find({}, { sort: { name: 1 }, projection: { _id: 0, name: 0 } }).toArray();
    expect(stored).toEqual([hiddenAt({ salary: 1 }), hiddenAt('a string')]);
    const renamed = await people.gateway.execute({ query: `mutation { updatePerson(id: "${withString.toHexString()}", input: { name: "C" }) { name } }` }, { viewer: as('clerk') });
    expect([renamed.errors, renamed.data]).toEqual([undefined, { updatePerson: { name: 'C' } }]);
  });
});

describe('an update of a hidden field that moves a total', () => {
  const payrollDefs = /* GraphQL */ `
    type Query { teams(first: Int = 20): [Team!]! @list(sort: "name") }
    type Mutation { updateMember(id: ID!, input: MemberPatch!): Member! @update }
    type Team @collection(name: "teams") @access(roles: ["clerk"], allow: [READ], hide: ["payroll"]) {
      id: ID!
      name: String!
      payroll: Float! @total(of: "Team.members", field: "salary")
      members: [Member!]! @join(localField: "_id", foreignField: "teamId")
    }
    type Member @collection(name: "members") @access(roles: ["clerk"], allow: [READ], hide: ["salary"]) @access(roles: ["clerk"], allow: [UPDATE]) {
      id: ID!
      name: String!
      teamId: ID
      salary: Float!
    }
    input MemberPatch {
      name: String
      salary: Float
    }
  `;
  const team = new ObjectId('0000000000000000000000f1');
  const member = new ObjectId('0000000000000000000000f2');
  let payroll: SdlGateway;
  beforeAll(async () => {
    payroll = await startSdlGateway({
      typeDefs: payrollDefs,
      dbPrefix: 'hidden_total',
      prepare: async (db) => {
        await db.collection('teams').insertOne({ _id: team, name: 'Ops', payroll: 5000 });
        await db.collection('members').insertOne({ _id: member, name: 'Max', teamId: team, salary: 5000 });
        await db.collection('members').createIndex({ teamId: 1 });
        await db.collection('teams').createIndex({ name: 1, _id: 1 });
      },
    });
  }, 60_000);
  afterAll(() => payroll?.stop());

  it('is refused: the total it moves only when the value changes would show the value the row held', async () => {
    const refused = await payroll.gateway.execute({ query: `mutation { updateMember(id: "${member.toHexString()}", input: { salary: 5000 }) { name } }` }, { viewer: as('clerk') });
    expect(refused.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
      ['FORBIDDEN', 'Mutation.updateMember sets Member.salary, which is hidden from role "clerk", and what it moves elsewhere (counts, totals, references) would show the value it held; set it in a mutation run by a role that reads it'],
    ]);
    const renamed = await payroll.gateway.execute({ query: `mutation { updateMember(id: "${member.toHexString()}", input: { name: "Maxine" }) { name } }` }, { viewer: as('clerk') });
    expect(renamed.data).toEqual({ updateMember: { name: 'Maxine' } });
  });
});

describe('a write changing copies that sit among rows the role cannot see', () => {
  const clinicDefs = /* GraphQL */ `
    type Query { doctors(first: Int = 20): [Doctor!]! @list(sort: "name") }
    type Mutation { updateAppointment(id: ID!, input: AppointmentPatch!): Appointment! @update }
    type Doctor @collection(name: "doctors") @access(roles: ["patient"], allow: [READ]) {
      id: ID!
      name: String!
      "The two newest appointments: a patient reads its own among them (by join, filtered)."
      recent: [Appointment!]! @embedded @join(collection: "appointments", localField: "_id", foreignField: "doctorId", sort: "-at", limit: 2) @read(strategy: EMBEDDED)
    }
    type Appointment @collection(name: "appointments") @access(roles: ["patient"], allow: [READ, UPDATE], where: [{ field: "patient", claim: "sub" }]) {
      id: ID!
      at: String!
      note: String
      patient: String!
      doctorId: ID!
    }
    input AppointmentPatch { note: String }
  `;
  const doctor = new ObjectId('0000000000000000000000d1');
  const mine = { _id: new ObjectId('0000000000000000000000a1'), at: '2026-01-01', note: 'first', patient: 'ann', doctorId: doctor };
  const theirs = { _id: new ObjectId('0000000000000000000000b1'), at: '2026-01-02', note: 'x', patient: 'bob', doctorId: doctor };
  const later = { _id: new ObjectId('0000000000000000000000b2'), at: '2026-01-03', note: 'y', patient: 'bob', doctorId: doctor };
  let clinic: SdlGateway;
  beforeAll(async () => {
    clinic = await startSdlGateway({
      typeDefs: clinicDefs,
      dbPrefix: 'copies_among_hidden_rows',
      prepare: async (db) => {
        await db.collection('appointments').insertMany([mine, theirs]);
        await db.collection('doctors').insertOne({ _id: doctor, name: 'Grey', recent: [theirs, mine] });
        await db.collection('doctors').createIndex({ name: 1, _id: 1 });
        await db.collection('appointments').createIndex({ doctorId: 1, at: -1 });
      },
    });
  }, 60_000);
  afterAll(() => clinic?.stop());

  it('withholds the counts of the rows holding those copies: whether the doctor still shows the appointment depends on others\' bookings', async () => {
    const setNote = (note: string) => clinic.gateway.execute({ query: `mutation { updateAppointment(id: "${mine._id.toHexString()}", input: { note: "${note}" }) { note } }` }, { viewer: as('patient') });
    const whileShown = await setNote('second');
    // Someone else books later: the doctor's two newest no longer hold ann's appointment.
    await clinic.db.collection('appointments').insertOne(later);
    await clinic.db.collection('doctors').updateOne({ _id: doctor }, { $set: { recent: [later, theirs] } });
    const oncePushedOut = await setNote('third');
    for (const result of [whileShown, oncePushedOut]) {
      expect(result.errors).toBeUndefined();
      expect(result.cost?.writes).toMatchObject({ documentsModified: 0, fanOut: {}, withheld: ['appointments', 'doctors'] });
    }
    expect((await clinic.db.collection('appointments').findOne({ _id: mine._id }))?.note).toBe('third');
  });
});
