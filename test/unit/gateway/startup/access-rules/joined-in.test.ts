import { buildGatewaySchema } from '../../../../../src/gateway/startup/schema/build-gateway-schema';
import { withDirectiveTypeDefs } from '../../../../../src/gateway/startup/schema/schema-sources';

describe('joinedIn: the collections holding copies a role reads by join', () => {
  it('names the collection of the document an embedded type holding the copy lives in', () => {
    const sdl = /* GraphQL */ `
      type Query { doctors: [Doctor!]! @list }
      type Doctor @collection(name: "doctors") @access(roles: ["patient"], allow: [READ]) {
        id: ID!
        profile: Profile! @embedded
      }
      "Embedded in a doctor: its copy of an appointment sits in the doctors collection."
      type Profile { note: String latestBooked: Appointment @snapshot(path: "latestBooked", fields: ["id", "at"]) @join(localField: "latestBooked.id") @read(strategy: SNAPSHOT) }
      type Appointment @collection(name: "appointments") @access(roles: ["patient"], allow: [READ], where: [{ field: "patient", claim: "sub" }]) {
        id: ID!
        at: String!
        patient: String!
      }
    `;
    const { accessRules } = buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl), resolvers: {} });
    expect([...(accessRules.joinedFor.get('patient') ?? [])].sort()).toEqual(['Profile.latestBooked']);
    expect([...(accessRules.joinedIn.get('patient') ?? [])]).toEqual(['doctors']);
  });
});
