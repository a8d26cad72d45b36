import { ContactDetail } from './contact-detail';
import { DateTimeScalar } from './date-time-scalar';
import { Mutation } from './mutation';
import { Query } from './query';

/** The hand-written resolvers: root fields (queries and mutations), scalars and abstract types. Relation and stored fields come from the storage map. */
export const rootResolvers = { Query, Mutation, DateTime: DateTimeScalar, ContactDetail };
