/**
 * Fields whose names say they hold personal data, so that advice and `migrate` can say so before they
 * copy them into another collection: every copy is one more place an erasure or an access request
 * must reach, and a reader of that collection sees them. Judged from the names alone (the type's and
 * the field's); a miss is possible, so it is a notice, never a refusal.
 */
export type PersonalDataKind = 'e-mail address' | 'phone number' | 'postal address' | "person's name" | 'date of birth' | 'identity or bank number';

/** Types whose `name` is a person's. */
const PERSON_TYPES = /(customer|user|person|people|author|member|employee|contact|patient|student|owner|client|shopper|buyer|seller|account|profile|driver|guest)$/i;

const BY_FIELD_NAME: ReadonlyArray<readonly [RegExp, PersonalDataKind]> = [
  [/e[-_]?mail/i, 'e-mail address'],
  [/phone|mobile|^tel$|fax/i, 'phone number'],
  [/^(?!ip|mac).*(address|street)|post(al)?code|zip(code)?$|^city$/i, 'postal address'],
  [/(first|last|given|family|full|middle|maiden)_?name|surname/i, "person's name"],
  [/birth|^dob$/i, 'date of birth'],
  [/ssn|passport|iban|tax_?id|national_?id|social_?security/i, 'identity or bank number'],
];

/** What personal data `Type.field` looks like it holds, by its names; undefined when nothing suggests any. */
export function personalDataKind(typeName: string, fieldName: string): PersonalDataKind | undefined {
  for (const [pattern, kind] of BY_FIELD_NAME) if (pattern.test(fieldName)) return kind;
  if (fieldName.toLowerCase() === 'name' && PERSON_TYPES.test(typeName)) return "person's name";
  return undefined;
}

/** `fields` of `typeName` that look personal, as `email (e-mail address)`; empty when none do. */
export function describePersonalFields(typeName: string, fields: readonly string[]): string[] {
  return fields.flatMap((field) => {
    const kind = personalDataKind(typeName, field);
    return kind ? [`${field} (${kind})`] : [];
  });
}
