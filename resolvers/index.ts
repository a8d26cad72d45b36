import { ContactDetail } from './contact-detail';
import { DateTimeScalar } from './date-time-scalar';
import { Query } from './query';

/** The hand-written resolvers: root fields, scalars and abstract types. Relation and stored fields come from the storage map. */
export const rootResolvers = { Query, DateTime: DateTimeScalar, ContactDetail };
