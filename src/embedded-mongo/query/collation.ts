import type { Document } from 'bson';
import { LocationCodes, locationError, namedError } from '../protocol/command-error';
import { compareStrings } from '../../bson/compare-strings';
import { comparatorWithStrings, compareValues, type ValueComparator } from '../../bson/compare-values';

/** The ICU version MongoDB 7.0 is built with; a stored collation spec names it. */
const ICU_VERSION = '57.1';

export type CaseFirst = 'upper' | 'lower' | 'off';
export type Alternate = 'non-ignorable' | 'shifted';
export type MaxVariable = 'punct' | 'space';

/** Every collation option with its value, in the order MongoDB stores and lists them. */
export interface CollationSpec {
  readonly locale: string;
  readonly caseLevel: boolean;
  readonly caseFirst: CaseFirst;
  readonly strength: number;
  readonly numericOrdering: boolean;
  readonly alternate: Alternate;
  readonly maxVariable: MaxVariable;
  readonly normalization: boolean;
  readonly backwards: boolean;
  readonly version: string;
}

/**
 * A non-simple collation (MongoDB docs: "Collation"): how an operation compares strings. Built on
 * `Intl.Collator` (node's ICU): strength 1 compares base letters only, 2 adds diacritics, 3 (the
 * default) adds case and orders like ICU's tertiary level ('a' < 'B' < 'b'), 4 also tells
 * punctuation apart under `alternate: "shifted"`, and 5 breaks remaining ties by code point (of the NFD forms).
 */
export class Collation {
  /** Compares two strings under this collation: negative, 0 (equal under it) or positive. */
  readonly compare: (a: string, b: string) => number;

  constructor(readonly spec: CollationSpec, tag: string) {
    this.compare = stringComparator(spec, tag);
  }

  /** The spec as a document, as `listCollections` shows a collection's default collation. */
  toDocument(): Document {
    return { ...this.spec };
  }

  /** Same options (a view's default collation must equal an operation's). */
  equals(other: Collation | undefined): boolean {
    return other !== undefined && JSON.stringify(this.spec) === JSON.stringify(other.spec);
  }
}

/**
 * Parses a `collation` document as MongoDB 7.0 does (the IDL `Collation` struct, then ICU's
 * checks): undefined for `{ locale: "simple" }` (binary comparison). Errors, in MongoDB's order:
 * 14 TypeMismatch (wrong type), 2 BadValue (unknown enum value), 51024 (strength above 5),
 * 40415 IDLUnknownField, 40414 IDLFailedToParse (no locale), then BadValue for a locale ICU does
 * not know and for options that contradict the strength.
 */
export function parseCollation(value: unknown): Collation | undefined {
  if (!isPlainObject(value)) {
    throw namedError('TypeMismatch', `BSON field 'collation' is the wrong type '${typeName(value)}', expected type 'object'`);
  }
  const parsed = parseFields(value);
  if (parsed.locale === undefined) throw namedError('IDLFailedToParse', "BSON field 'collation.locale' is missing but a required field");
  const locale = parsed.locale;
  if (locale.includes('\0')) throw namedError('BadValue', `Field 'locale' cannot contain null byte. Collation spec: ${formatSpec(value)}`);
  if (locale === 'simple') return undefined;
  if (locale === '') throw namedError('BadValue', `Field 'locale' cannot be the empty string in: ${formatSpec(value)}`);
  const tag = validatedTag(locale, value);
  const strength = parsed.strength ?? 3;
  const caseLevel = parsed.caseLevel ?? false;
  const caseFirst = parsed.caseFirst ?? localeCaseFirst(tag);
  const backwards = parsed.backwards ?? false;
  if (parsed.version !== undefined && parsed.version !== ICU_VERSION) {
    throw namedError(
      'IncompatibleCollationVersion',
      `Requested collation version ${parsed.version} but the only available collator version was ${ICU_VERSION}. Requested collation spec: ${formatSpec(value)}`,
    );
  }
  if (backwards && strength === 1) throw namedError('BadValue', `'backwards' is invalid with 'strength' of 1 in: ${formatSpec(value)}`);
  if (caseFirst !== 'off' && !caseLevel && strength < 3) {
    throw namedError('BadValue', `'caseFirst' is invalid unless 'caseLevel' is on or 'strength' is greater than 2 in: ${formatSpec(value)}`);
  }
  const spec: CollationSpec = {
    locale,
    caseLevel,
    caseFirst,
    strength,
    numericOrdering: parsed.numericOrdering ?? false,
    alternate: parsed.alternate ?? 'non-ignorable',
    maxVariable: parsed.maxVariable ?? 'punct',
    normalization: parsed.normalization ?? false,
    backwards,
    version: ICU_VERSION,
  };
  return new Collation(spec, tag);
}

type ParsedFields = { -readonly [K in keyof CollationSpec]?: CollationSpec[K] };

const ENUMS = {
  caseFirst: ['upper', 'lower', 'off'],
  alternate: ['non-ignorable', 'shifted'],
  maxVariable: ['punct', 'space'],
} as const;

/** The IDL pass: each field's type, enum value and range, in document order; unknown fields fail. */
function parseFields(value: Document): ParsedFields {
  const parsed: ParsedFields = {};
  for (const [field, raw] of Object.entries(value)) {
    const path = `collation.${field}`;
    switch (field) {
      case 'locale':
      case 'version':
        if (typeof raw !== 'string') throw wrongType(path, raw, 'string');
        parsed[field] = raw;
        break;
      case 'caseLevel':
      case 'numericOrdering':
      case 'normalization':
      case 'backwards':
        if (typeof raw !== 'boolean') throw wrongType(path, raw, 'bool');
        parsed[field] = raw;
        break;
      case 'caseFirst':
      case 'alternate':
      case 'maxVariable': {
        if (typeof raw !== 'string') throw wrongType(path, raw, 'string');
        const allowed: readonly string[] = ENUMS[field];
        if (!allowed.includes(raw)) throw namedError('BadValue', `Enumeration value '${raw}' for field '${path}' is not a valid value.`);
        (parsed as Record<string, unknown>)[field] = raw;
        break;
      }
      case 'strength': {
        const number = numberOf(raw);
        if (number === undefined) throw wrongTypes(path, raw, '[long, int, decimal, double]');
        const strength = Number.isNaN(number) ? 0 : Math.trunc(number);
        if (strength < 0) throw locationError(LocationCodes.idlValueOutOfRange, `BSON field 'strength' value must be >= 0, actual value '${strength}'`);
        if (strength > 5) throw locationError(LocationCodes.idlValueOutOfRange, `BSON field 'strength' value must be <= 5, actual value '${strength}'`);
        if (strength === 0) throw namedError('FailedToParse', `Field 'strength' must be an integer 1 through 5. Got: ${strength}`);
        parsed.strength = strength;
        break;
      }
      default:
        throw namedError('IDLUnknownField', `BSON field '${path}' is an unknown field.`);
    }
  }
  return parsed;
}

/** ICU `@collation=` keywords and their BCP 47 (`-u-co-`) names. */
const COLLATION_KEYWORDS: Readonly<Record<string, string>> = {
  phonebook: 'phonebk',
  pinyin: 'pinyin',
  stroke: 'stroke',
  traditional: 'trad',
  unihan: 'unihan',
  zhuyin: 'zhuyin',
  search: 'search',
  standard: 'standard',
  compat: 'compat',
  big5han: 'big5han',
  gb2312han: 'gb2312',
};

/**
 * The BCP 47 tag of an ICU locale id (`fr_CA`, `de@collation=phonebook`). As in MongoDB, the id
 * must name exactly a locale ICU has collation data for: a canonicalised or fallen-back locale
 * ('EN', 'en_XX', 'xx') is BadValue, with ICU's own choice suggested when it has one.
 */
function validatedTag(locale: string, spec: Document): string {
  const [base = '', keywords, ...extra] = locale.split('@');
  let tag = base.replace(/_/g, '-');
  if (extra.length > 0) throw invalidLocale(spec, undefined);
  if (keywords !== undefined) {
    const match = /^collation=([a-z0-9]+)$/.exec(keywords);
    const keyword = match === null ? undefined : COLLATION_KEYWORDS[match[1]!];
    if (keyword === undefined) throw invalidLocale(spec, undefined);
    tag = `${tag}-u-co-${keyword}`;
  }
  let canonical: string | undefined;
  try {
    canonical = Intl.getCanonicalLocales(tag)[0];
  } catch {
    throw namedError('BadValue', `Field 'locale' is not valid in: ${formatSpec(spec)}`);
  }
  if (canonical === undefined || Intl.Collator.supportedLocalesOf([canonical], { localeMatcher: 'lookup' }).length === 0) {
    throw invalidLocale(spec, undefined);
  }
  const resolved = new Intl.Collator(canonical).resolvedOptions().locale;
  if (canonical !== tag || resolved !== tag) throw invalidLocale(spec, icuLocaleId(resolved));
  return tag;
}

function invalidLocale(spec: Document, suggestion: string | undefined): Error {
  const hint = suggestion === undefined ? '' : `. Did you mean '${suggestion}'?`;
  return namedError('BadValue', `Field 'locale' is invalid in: ${formatSpec(spec)}${hint}`);
}

/** `de-u-co-phonebk` → `de@collation=phonebook`, `fr-CA` → `fr_CA`. */
function icuLocaleId(tag: string): string {
  const [base = '', keyword] = tag.split('-u-co-');
  const id = base.replace(/-/g, '_');
  if (keyword === undefined) return id;
  const name = Object.entries(COLLATION_KEYWORDS).find(([, bcp]) => bcp === keyword)?.[0] ?? keyword;
  return `${id}@collation=${name}`;
}

/** The locale's own caseFirst default (ICU: Danish sorts upper case first). */
function localeCaseFirst(tag: string): CaseFirst {
  const caseFirst = new Intl.Collator(tag).resolvedOptions().caseFirst;
  return caseFirst === 'upper' || caseFirst === 'lower' ? caseFirst : 'off';
}

/**
 * The string comparison of a spec. `Intl.Collator`'s sensitivities are ICU strengths 1–3
 * ('base', 'accent', 'variant'; 'case' is strength 1 with caseLevel); the other combinations
 * compare twice. `backwards`, `normalization` and `maxVariable` keep the locale's own behaviour.
 */
function stringComparator(spec: CollationSpec, tag: string): (a: string, b: string) => number {
  const base: Intl.CollatorOptions = {
    usage: 'sort',
    caseFirst: spec.caseFirst === 'off' ? 'false' : spec.caseFirst,
    numeric: spec.numericOrdering,
    ignorePunctuation: spec.alternate === 'shifted',
  };
  const collator = (sensitivity: Intl.CollatorOptions['sensitivity'], ignorePunctuation = base.ignorePunctuation): ((a: string, b: string) => number) =>
    new Intl.Collator(tag, { ...base, sensitivity, ignorePunctuation }).compare;
  switch (spec.strength) {
    case 1:
      return collator(spec.caseLevel ? 'case' : 'base');
    case 2: {
      const accents = collator('accent');
      if (!spec.caseLevel) return accents;
      const cases = collator('case');
      return (a, b) => accents(a, b) || cases(a, b);
    }
    case 3:
      return collator('variant');
    case 4: {
      const tertiary = collator('variant');
      if (!base.ignorePunctuation) return tertiary;
      // shifted punctuation is ignored up to the third level and compared at the fourth
      const quaternary = collator('variant', false);
      return (a, b) => tertiary(a, b) || quaternary(a, b);
    }
    default: {
      const tertiary = collator('variant');
      const all = base.ignorePunctuation ? collator('variant', false) : undefined;
      // the identical level: code points of the NFD forms
      return (a, b) => tertiary(a, b) || (all?.(a, b) ?? 0) || compareStrings(a.normalize('NFD'), b.normalize('NFD'));
    }
  }
}

function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const tag = (value as { _bsontype?: unknown })._bsontype;
  if (tag === 'Int32' || tag === 'Double') return (value as { value: number }).value;
  if (tag === 'Long' || tag === 'Decimal128') return Number(String(value));
  return undefined;
}

function wrongType(path: string, value: unknown, expected: string): Error {
  return namedError('TypeMismatch', `BSON field '${path}' is the wrong type '${typeName(value)}', expected type '${expected}'`);
}

function wrongTypes(path: string, value: unknown, expected: string): Error {
  return namedError('TypeMismatch', `BSON field '${path}' is the wrong type '${typeName(value)}', expected types '${expected}'`);
}

function isPlainObject(value: unknown): value is Document {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) return false;
  return (value as { _bsontype?: unknown })._bsontype === undefined;
}

/** MongoDB's type name of a command field's value, as IDL errors print it. */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'date';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'double';
    case 'object': {
      const tag = (value as { _bsontype?: unknown })._bsontype;
      if (tag === undefined) return 'object';
      if (tag === 'Int32') return 'int';
      return String(tag).toLowerCase();
    }
    default:
      return typeof value;
  }
}

/** A spec the way MongoDB prints a BSON object in error messages: `{ locale: "xx", strength: 2 }`. */
function formatSpec(spec: Document): string {
  const fields = Object.entries(spec).map(([key, value]) => `${key}: ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`);
  return fields.length === 0 ? '{}' : `{ ${fields.join(', ')} }`;
}

const COLLATED = new WeakMap<Collation, ValueComparator>();

/**
 * MongoDB's order with strings compared under `collation`; plain `compareValues` without one, so
 * binary comparisons pay nothing for collation support.
 */
export function valueComparator(collation: Collation | undefined): ValueComparator {
  if (collation === undefined) return compareValues;
  let compare = COLLATED.get(collation);
  if (compare === undefined) {
    compare = comparatorWithStrings(collation.compare);
    COLLATED.set(collation, compare);
  }
  return compare;
}
