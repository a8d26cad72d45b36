import { Kind, parse } from 'graphql';

/**
 * docjoin's storage directives and write rules, as SDL. They describe where each field's data lives;
 * clients never see them (the public schema has them removed). createGateway adds them to a user's SDL
 * unless it already defines them, so a project's schema files need no copy.
 */
export const directiveTypeDefs = /* GraphQL */ `
"""The MongoDB collection that holds documents of this type. Its \`id: ID!\` field reads \`_id\`."""
directive @collection(name: String!) on OBJECT

"""Reads this field from another document path than its own name (dot notation allowed)."""
directive @path(path: String!) on FIELD_DEFINITION

"""
Shape: the related data is embedded in the parent document at \`path\` (default: the field name).
Read with no query; a \`first\` argument becomes a \`$slice\` projection.
"""
directive @embedded(path: String) on FIELD_DEFINITION

"""
Shape: the related documents live in their own collection and are joined in the application with
one batched \`$in\` query per level. \`localField\` is the parent path holding the key (or an array of
keys, whose order is kept); \`foreignField\` is the matching path in \`collection\` (default: \`_id\`).
A reverse join (many children pointing at one parent) gives \`sort\` (\`"-createdAt"\`: newest first)
and may bound each parent's list with \`limit\`; a \`first\` argument bounds it per request, and
\`after: ID\` (the id of the last item received, which must be one of this parent's) pages it. A list
field may also take filters on the target's fields and \`orderBy\` (as \`@list\` does). A reverse join
may return a Relay connection type instead of a list (\`edges { cursor node }\`, \`pageInfo\`,
optional \`totalCount\` and \`nodes\`): it then pages with \`first\` and \`after: String\`, an opaque
cursor valid for this field, order and parent only.
"""
directive @join(
  collection: String
  localField: String!
  foreignField: String = "_id"
  sort: String
  limit: Int
) on FIELD_DEFINITION

"""
Shape: a denormalized copy of some fields of the related document(s), kept in the parent at \`path\`.
\`fields\` are the target type's fields present in the copy; \`key\` is the copy's field holding the
related document's id. A selection that fits \`fields\` costs no query; otherwise the missing
documents are fetched with the field's @join shape, which a snapshot field must also declare.
"""
directive @snapshot(path: String!, fields: [String!]!, key: String = "id") on FIELD_DEFINITION

"""
Which declared shape serves reads. Required when a field declares more than one shape. LOOKUP reads a
@join inside the parent's own command (a \`$lookup\` stage, nested to any depth): no round trip of its
own, but each parent gets its own copy of the documents it shares with others.
"""
directive @read(strategy: ReadStrategy!) on FIELD_DEFINITION

enum ReadStrategy {
  EMBEDDED
  JOIN
  SNAPSHOT
  LOOKUP
}

"""
Write rule: this Int field is a precomputed count of what the relation field \`of\` ("Type.field", on
this type) yields. The writes that add to that relation increment it; \`docjoin reconcile\` recounts it.
"""
directive @counter(of: String!) on FIELD_DEFINITION

"""
Write rule: this field is a precomputed sum of the numeric field \`field\` over what the relation \`of\`
("Type.field", a reverse @join of this type) yields, typed as that field's aggregate \`sum\` is (Float for
Int and Float, Long for Long, Decimal for Decimal). The writes
that add, remove or change those children move it by the child's value; \`docjoin reconcile\` sums it
again. An unfiltered \`sum\` (and, with a \`@counter\` of the same list, \`avg\`) of the list's
\`@aggregate\` is then read from the parent, with no command.
"""
directive @total(of: String!, field: String!) on FIELD_DEFINITION

"""
Write rule: this relation is the derived side of a two-way reference. Its \`@join(localField:)\` array
in this document lists the documents whose relation \`of\` ("Type.field", the side that is the truth)
points back here. Writes that change \`of\` update this side too; \`docjoin reconcile\` rebuilds it.
"""
directive @inverse(of: String!) on FIELD_DEFINITION

"""
Generated root field: the one \`@collection\` document whose fields equal the arguments. Each argument
names a field of the type (\`id\` reads \`_id\`), and together they must be unique: \`id\`, or fields
with a unique index (checked at startup). One \`find\` with \`limit: 1\`; null when nothing matches.
"""
directive @find on FIELD_DEFINITION

"""
Generated root field: a page of \`@collection\` documents in \`sort\` order (\`"-placedAt"\`; \`_id\` is
always the final tie-breaker). Arguments: \`first: Int\` (default 20, at most 100), \`after: ID\` (the id
of the last item received), \`orderBy\` (an enum whose values carry \`@sort\`), and filters: an
argument named like a field of the type is an equality filter on it, \`@filter\` maps any other.
Every filtered field must lead an index (checked at startup). One \`find\`. Returning a Relay
connection type instead of a list, it pages with \`after: String\` (a cursor it returned), and
\`totalCount\` adds one count, only when selected.
"""
directive @list(sort: String = "_id") on FIELD_DEFINITION

"""
Generated figures over a list field of the same type (\`of\`: a root \`@list\`, or a reverse \`@join\`
whose children point at the parent). The field returns \`<Target>Aggregate!\`, a type docjoin
generates: \`count\`; \`sum\` and \`avg\` of the target's stored Int and Float \`fields\`, \`min\` and
\`max\` of those and of its DateTime ones; and \`groupBy\` over the stored fields and reference keys
listed in \`groupBy\`. It takes any of the list's filter arguments, under the same names and types.
Every parent's figures of a level come from ONE aggregate; a \`count\` that a \`@counter\` of the
list answers costs no command when no filter is given and no access rule narrows the children.
"""
directive @aggregate(of: String!, fields: [String!] = [], groupBy: [String!] = []) on FIELD_DEFINITION

"""
A filter argument of a \`@list\` field: compares the type's \`field\` with the argument by \`op\`
(default: IN for a list argument, EQ otherwise).
"""
directive @filter(field: String!, op: FilterOp) on ARGUMENT_DEFINITION

"""How a \`@filter\` argument compares: IN takes a list; PREFIX matches strings that start with the value."""
enum FilterOp {
  EQ
  NE
  LT
  LTE
  GT
  GTE
  IN
  PREFIX
}

"""The order an \`orderBy\` enum value of a \`@list\` field stands for, in \`@list(sort:)\` syntax."""
directive @sort(by: String!) on ENUM_VALUE

"""
Generated mutation: inserts one document of the returned \`@collection\` type from its \`input\` argument,
an input object whose fields are named like the type's: scalars and enums are stored at their paths,
a reference (a by-key \`@join\`, or a \`@snapshot\`) takes the referenced \`ID\` (a list: \`[ID!]\`) and is
checked to exist, a snapshot is filled from its source, an \`@embedded\` field takes a nested input of
the same kind (snapshots inside it are filled too). Counters, inverse arrays and bounded arrays the new
document feeds are updated, all in one transaction where the server supports it.
"""
directive @create on FIELD_DEFINITION

"""
Generated mutation: \`(id: ID!, input: …)\` sets the given fields of one document (its own scalar and
enum fields; a field left out is left alone) and every \`@snapshot\` copy of them elsewhere.
"""
directive @update on FIELD_DEFINITION

"""
Generated mutation: \`(id: ID!)\` deletes one document of the \`@collection\` type named by \`@delete(type:)\`,
refused while other documents still reference it; its parents' counters, the bounded arrays it was in
and the inverse arrays of its references follow. Returns the id (\`ID\`) or \`true\` (\`Boolean\`).
"""
directive @delete(type: String!) on FIELD_DEFINITION

"""
Access rule (README, "Securing docjoin"): what the viewers whose role is one of \`roles\` may do with
this type. Once any type has a rule, a role may do only what a rule of the type allows it: a
\`@collection\` type without rules is read by no one, a type without a collection by whoever reads the
document it sits in. \`where\`: the rows the rule covers, each entry a field of the type that must equal
a claim of the viewer's token (\`{ field: "owner", claim: "sub" }\`) or a constant (\`{ field: "published", equals: true }\`); docjoin adds it to the MongoDB
command that reads, updates or deletes them, and sets it on the documents they create (an input
giving another value is FORBIDDEN). \`hide\`: fields these roles may not select, filter or sort by.
\`readOnly\`: fields their updates may not set. \`via\`: the Mutation fields through which they may create,
update or delete (none: any), e.g. only a hand-written mutation that prices an order. A role has at
most one rule per action on a type.
"""
directive @access(roles: [String!]!, allow: [AccessAction!]!, where: [AccessMatch!] = [], hide: [String!] = [], readOnly: [String!] = [], via: [String!] = []) repeatable on OBJECT

"""What an \`@access\` rule allows."""
enum AccessAction {
  READ
  CREATE
  UPDATE
  DELETE
}

"""
A row condition of an \`@access\` rule: the type's \`field\` equals the viewer's claim \`claim\`, or
the constant \`equals\` (\`{ field: "published", equals: true }\`); give one of the two.
"""
input AccessMatch {
  field: String!
  claim: String
  equals: AccessValue
}

"""The constant an \`@access\` condition compares a field with: a string (an enum value's name, an id's hex), a number or a boolean."""
scalar AccessValue
`;

/** The names of docjoin's directives: removed from the schema clients see, where the project's own directives stay. */
export const DOCJOIN_DIRECTIVE_NAMES: ReadonlySet<string> = new Set(
  parse(directiveTypeDefs).definitions.flatMap((definition) => (definition.kind === Kind.DIRECTIVE_DEFINITION ? [definition.name.value] : [])),
);
