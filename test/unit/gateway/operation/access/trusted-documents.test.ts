import { createHash } from 'node:crypto';
import { parse } from 'graphql';
import { TrustedDocuments } from '../../../../../src/gateway/operation/access/trusted-documents';
import { GatewayOptionError } from '../../../../../src/gateway/errors/internal-errors';

const text = 'query Me { me { id name } }';
const sha256Hex = (document: string) => createHash('sha256').update(document).digest('hex');
const hex = sha256Hex(text);
/** Only `document` trusted, as a manifest of one entry gives it. */
const trustingOnly = (document: string): TrustedDocuments => TrustedDocuments.load({ manifest: { [`sha256:${sha256Hex(document)}`]: document } }, true);
/** Whether `trusted` runs `sent`, a client's text with its own hash. */
const runs = (trusted: TrustedDocuments, sent: string): boolean => trusted.trusts(sha256Hex(sent), parse(sent), sent);

describe('TrustedDocuments', () => {
  it('checks the manifest at startup: keys, hashes, readability', () => {
    expect(() => TrustedDocuments.load({ manifest: { [`md5:${hex}`]: text } }, true)).toThrow(`has the entry "md5:${hex}", which is not "sha256:<64 hex digits>": "<document>"`);
    expect(() => TrustedDocuments.load({ manifest: { [`sha256:${'0'.repeat(64)}`]: text } }, true)).toThrow(`sha256:${'0'.repeat(64)} is not the hash of its document; generate the manifest again`);
    expect(() => TrustedDocuments.load({ manifest: '/nonexistent/persisted-documents.json' }, true)).toThrow('option trustedDocuments.manifest: cannot read /nonexistent/persisted-documents.json as JSON');
    // An option's mistake, which `docjoin serve` tells in its one line (no stack trace).
    expect(() => TrustedDocuments.load({ manifest: '/nonexistent/persisted-documents.json' }, true)).toThrow(GatewayOptionError);
  });

  it('trusts a document by its hash, or by its text once normalized as graphql-codegen prints it', () => {
    const trusted = trustingOnly(text);
    expect(trusted.only).toBe(true);
    expect(trusted.trusts(hex, undefined, text)).toBe(true);
    const reordered = 'query Me {\n  me {\n    name\n    id\n  }\n}';
    expect(runs(trusted, reordered)).toBe(true);
    const other = 'query Me { me { id name email } }';
    expect(runs(trusted, other)).toBe(false);
  });

  it('keeps every string as it is: spaces inside a string are the argument, not layout', () => {
    const byOwner = 'query ByOwner { notes(owner: "ann smith") { text id } }';
    const trusted = trustingOnly(byOwner);
    const relaidOut = 'query ByOwner {\n  notes( owner : "ann smith" ) {\n    id\n    text\n  }\n}';
    expect(runs(trusted, relaidOut)).toBe(true);
    const spaced = 'query ByOwner { notes(owner: "ann   smith") { text id } }';
    expect(runs(trusted, spaced)).toBe(false);
    const broken = 'query ByOwner { notes(owner: """ann\nsmith""") { text id } }';
    expect(runs(trusted, broken)).toBe(false);
  });

  it("trusts a mutation whose root fields run in the manifest's order only, through the fragments spread at its root too; below them, any order", () => {
    const steps = 'mutation Swap($id: ID!) { ...Steps } fragment Steps on Mutation { deleteNote(id: $id) createNote(input: { text: "t" }) { id text } }';
    const trusted = trustingOnly(steps);
    const reordered = 'mutation Swap($id: ID!) { ...Steps } fragment Steps on Mutation { createNote(input: { text: "t" }) { id text } deleteNote(id: $id) }';
    expect(runs(trusted, reordered)).toBe(false);
    const inline = 'mutation Swap($id: ID!) { ... on Mutation { createNote(input: { text: "t" }) { id text } } ...Steps } fragment Steps on Mutation { deleteNote(id: $id) createNote(input: { text: "t" }) { id text } }';
    expect(runs(trusted, inline)).toBe(false);
    const below = 'mutation Swap($id: ID!) { ...Steps } fragment Steps on Mutation { deleteNote(id: $id) createNote(input: { text: "t" }) { text id } }';
    expect(runs(trusted, below)).toBe(true);
  });

  it('trusts a client printing with __typename added to every selection, as Apollo Client and urql send them, and no other addition', () => {
    const trusted = trustingOnly(text);
    const withTypename = 'query Me { me { __typename id name } __typename }';
    expect(runs(trusted, withTypename)).toBe(true);
    // An aliased __typename is a field the manifest does not select: not trusted.
    const aliased = 'query Me { me { kind: __typename id name } }';
    expect(runs(trusted, aliased)).toBe(false);
    const widened = 'query Me { me { __typename id name email } }';
    expect(runs(trusted, widened)).toBe(false);
  });

  it('with `only`, keeps a client printing of a trusted document by its hash, so it may send the hash alone next time', async () => {
    const only = trustingOnly(text).cache();
    const withTypename = 'query Me { me { __typename id name } }';
    await only.set(`apq:${sha256Hex(withTypename)}`, withTypename);
    expect(await only.get(`apq:${sha256Hex(withTypename)}`)).toBe(withTypename);
  });

  it('refuses at startup a manifest entry that is not GraphQL', () => {
    const broken = 'query Me { me {';
    expect(() => TrustedDocuments.load({ manifest: { [`sha256:${sha256Hex(broken)}`]: broken } }, true)).toThrow(`the document of sha256:${sha256Hex(broken)} is not valid GraphQL; generate the manifest again`);
  });

  it('serves the manifest by hash to Apollo, and registers other documents only when not `only`', async () => {
    const only = trustingOnly(text).cache();
    expect(await only.get(`apq:${hex}`)).toBe(text);
    await only.set('apq:abc', '{ x }');
    expect(await only.get('apq:abc')).toBeUndefined();
    const open = TrustedDocuments.load({ manifest: { [`sha256:${hex}`]: text }, only: false }, true).cache();
    await open.set('apq:abc', '{ x }');
    expect(await open.get('apq:abc')).toBe('{ x }');
  });

  it('keeps registered documents up to a total size, whatever their number: large ones evict the oldest', async () => {
    const open = TrustedDocuments.load({ manifest: { [`sha256:${hex}`]: text }, only: false }, true).cache();
    const large = (n: number) => `{ a${n}: __typename ${'b: __typename '.repeat(50_000)}}`;
    for (let n = 0; n < 40; n++) await open.set(`apq:${n}`, large(n));
    expect([await open.get('apq:0'), await open.get('apq:39')]).toEqual([undefined, large(39)]);
    // The manifest is not a cache: it stays.
    expect(await open.get(`apq:${hex}`)).toBe(text);
  });
});
