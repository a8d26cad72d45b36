import { describePersonalFields, personalDataKind } from '../../../../src/advise/recommend/personal-data';

describe('personalDataKind: what a field looks like it holds, by its names', () => {
  it.each([
    ['Customer', 'email', 'e-mail address'],
    ['Order', 'customerEmail', 'e-mail address'],
    ['Customer', 'e_mail', 'e-mail address'],
    ['Customer', 'phone', 'phone number'],
    ['Customer', 'mobileNumber', 'phone number'],
    ['Customer', 'shippingAddress', 'postal address'],
    ['Customer', 'street', 'postal address'],
    ['Customer', 'postcode', 'postal address'],
    ['Customer', 'city', 'postal address'],
    ['Person', 'firstName', "person's name"],
    ['Person', 'last_name', "person's name"],
    ['Author', 'surname', "person's name"],
    ['Customer', 'name', "person's name"],
    ['Person', 'birthDate', 'date of birth'],
    ['Customer', 'iban', 'identity or bank number'],
  ])('%s.%s: %s', (typeName, fieldName, kind) => {
    expect(personalDataKind(typeName, fieldName)).toBe(kind);
  });

  it.each([
    ['Host', 'ipaddr'],
    ['Host', 'ipAddress'],
    ['Device', 'macAddress'],
    ['Book', 'name'],
    ['Publisher', 'name'],
    ['Author', 'thumbnailUrl'],
    ['Post', 'title'],
    ['Stock', 'symbol'],
    ['Customer', 'tier'],
  ])('%s.%s: nothing', (typeName, fieldName) => {
    expect(personalDataKind(typeName, fieldName)).toBeUndefined();
  });

  it('describes the personal ones of a list of fields', () => {
    expect(describePersonalFields('Customer', ['id', 'name', 'tier', 'email'])).toEqual(["name (person's name)", 'email (e-mail address)']);
  });
});
