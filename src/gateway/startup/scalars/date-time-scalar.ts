import { GraphQLScalarType, Kind, print } from 'graphql';
import { badUserInput } from '../../errors/public-error-code';
import { isoDateTime } from './iso-date-time';
import { atLiteral } from './literal-error';
import { cutInput, quoteInput } from '../../errors/quote-input';

const DESCRIPTION = 'An ISO-8601 date-time, e.g. `2026-11-21T09:30:00.000Z`.';

/**
 * ISO-8601 strings on the wire, BSON Dates in MongoDB. Unparseable input is BAD_USER_INPUT. docjoin
 * binds it to a schema's `DateTime` unless the resolvers give their own. A value it answers must be a
 * Date or a full ISO-8601 string: a number could count seconds or milliseconds, and `Date` reads
 * `03/04/2021` or `2021` as it guesses; either is an error at its field rather than a date it made up.
 */
export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  description: DESCRIPTION,
  serialize(value) {
    const date = value instanceof Date ? value : typeof value === 'string' ? isoDate(value) : undefined;
    if (!date || Number.isNaN(date.getTime())) {
      throw new TypeError(`DateTime cannot represent ${JSON.stringify(value)}: it answers a stored date, or an ISO-8601 string like 2026-11-21T09:30:00.000Z`);
    }
    return isoDateTime(date);
  },
  parseValue(value) {
    return parseDateTime(value);
  },
  parseLiteral(ast) {
    return atLiteral(ast, () => {
      if (ast.kind !== Kind.STRING) throw badUserInput(`DateTime must be an ISO-8601 string, got ${cutInput(print(ast))}`);
      return parseDateTime(ast.value);
    });
  },
});

/** The scalar's definition, added to an SDL that uses `DateTime` without defining it. */
export const dateTimeTypeDefs = `${JSON.stringify(DESCRIPTION)}\nscalar DateTime\n`;

/** Full ISO-8601 date-times only (a date, a time, an offset); `Date.parse` alone accepts too much. */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(T(\d{2}):(\d{2})(:(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2})))?$/;

function parseDateTime(value: unknown): Date {
  const date = typeof value === 'string' ? isoDate(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) throw badUserInput(`DateTime must be an ISO-8601 string like 2026-11-21T09:30:00.000Z, got ${quoteInput(value)}`);
  return date;
}

/** The date a full ISO-8601 string names, or undefined for any other text. */
function isoDate(text: string): Date | undefined {
  const parts = ISO_DATE_TIME.exec(text);
  return parts && isCalendarTime(parts) ? new Date(text) : undefined;
}

/** Whether the date and time exist as written: `Date` rolls a 30 February over to March, and 24:00 to the next day. */
function isCalendarTime(parts: RegExpExecArray): boolean {
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = [1, 2, 3, 5, 6, 8, 11, 12].map((group) => Number(parts[group] ?? 0));
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  return month! >= 1 && month! <= 12 && day! >= 1 && day! <= daysInMonth && hour! <= 23 && minute! <= 59 && second! <= 59 && offsetHours! <= 23 && offsetMinutes! <= 59;
}
