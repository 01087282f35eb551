import type { z } from 'zod';

/**
 * Zod's words for a check that names no message of its own ("Invalid input: expected number,
 * received NaN"), said in the portal's words and naming the field ("limit must be a number").
 * Messages a schema gives itself come first; this only replaces zod's defaults, and returns
 * nothing for an issue it has no better words for, so zod's own stays.
 */

const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  date: 'a date',
  array: 'a list',
  tuple: 'a list',
  object: 'an object',
  record: 'an object',
  map: 'an object',
  set: 'a list',
  file: 'a file',
  null: 'null',
};

const FORMAT_WORDS: Record<string, string> = {
  uuid: 'a valid id',
  guid: 'a valid id',
  email: 'a valid e-mail address',
  url: 'a valid URL',
  datetime: 'an ISO 8601 date and time',
  date: 'a day written YYYY-MM-DD',
  time: 'a time written HH:MM',
  duration: 'an ISO 8601 duration',
};

/** Lists up to this many allowed values; more would bury the message. */
const MAX_LISTED_VALUES = 12;

/** The field an issue is about: the last name in its path ("forms.2.label" is "label"). */
function subjectOf(path: ReadonlyArray<PropertyKey> | undefined): string {
  const name = [...(path ?? [])].reverse().find((segment) => typeof segment === 'string');
  return name ?? 'The input';
}

const plural = (count: number | bigint, one: string) =>
  `${count} ${one}${count === 1 || count === 1n ? '' : 's'}`;

function sizeWords(origin: string, bound: number | bigint): string {
  if (origin === 'string') return plural(bound, 'character');
  if (origin === 'array' || origin === 'set') return plural(bound, 'item');
  if (origin === 'file') return plural(bound, 'byte');
  return String(bound);
}

/** An allowed value as text: strings bare, anything else (numbers, bigints, null) as it prints. */
const describeValue = (value: unknown): string => String(value);

export const inputErrorMap: z.core.$ZodErrorMap = (issue) => {
  const subject = subjectOf(issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return `${subject} is required`;
      // A query parameter given twice arrives as a list of strings.
      if (Array.isArray(issue.input) && issue.expected !== 'array' && issue.expected !== 'tuple')
        return `${subject} must be given once`;
      const words = TYPE_WORDS[issue.expected];
      return words ? `${subject} must be ${words}` : undefined;
    }
    case 'too_small': {
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return `${subject} is required`;
      if (issue.origin === 'date') return `${subject} is too early`;
      const bound = sizeWords(issue.origin, issue.minimum);
      if (issue.exact) return `${subject} must be exactly ${bound}`;
      if (issue.origin === 'string' || issue.origin === 'array' || issue.origin === 'set')
        return `${subject} must have at least ${bound}`;
      return issue.inclusive
        ? `${subject} must be at least ${bound}`
        : `${subject} must be more than ${bound}`;
    }
    case 'too_big': {
      if (issue.origin === 'date') return `${subject} is too late`;
      const bound = sizeWords(issue.origin, issue.maximum);
      if (issue.exact) return `${subject} must be exactly ${bound}`;
      if (
        issue.origin === 'string' ||
        issue.origin === 'array' ||
        issue.origin === 'set' ||
        issue.origin === 'file'
      )
        return `${subject} cannot exceed ${bound}`;
      return issue.inclusive
        ? `${subject} must be at most ${bound}`
        : `${subject} must be less than ${bound}`;
    }
    case 'invalid_format': {
      const words = FORMAT_WORDS[issue.format];
      return words ? `${subject} must be ${words}` : `${subject} is not in the expected form`;
    }
    case 'invalid_value': {
      const values = issue.values;
      if (values.length === 1) return `${subject} must be ${describeValue(values[0])}`;
      if (values.length === 0 || values.length > MAX_LISTED_VALUES)
        return `${subject} is not an accepted value`;
      return `${subject} must be one of ${values.map(describeValue).join(', ')}`;
    }
    case 'not_multiple_of':
      return `${subject} must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `Unknown ${issue.keys.length === 1 ? 'field' : 'fields'}: ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return `${subject} is not valid`;
    default:
      return undefined;
  }
};
