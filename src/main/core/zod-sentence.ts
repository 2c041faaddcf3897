import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** `item.tags[2]`: how a person points at a field of the request. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join('');
}

const article = (noun: string) => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);

/** zod's English says what arrived ("received undefined"); the issue itself does not keep it. */
function received(issue: Issue): string | undefined {
  return /received (\w+)/.exec(issue.message)?.[1];
}

/** A union's branch that got furthest (failed inside, not at its own shape) says more than "Invalid input". */
function closestBranch(issue: Issue & { code: 'invalid_union' }): Issue | undefined {
  let best: Issue | undefined;
  for (const branch of issue.errors) {
    const first = branch[0];
    if (first && first.path.length > 0 && (!best || first.path.length > best.path.length)) best = first;
  }
  return best ? { ...best, path: [...issue.path, ...best.path] } : undefined;
}

function problem(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type': {
      const got = received(issue);
      if (got === 'undefined') return `it is missing; send ${article(issue.expected)}`;
      return `it must be ${article(issue.expected)}${got ? `, not ${article(got)}` : ''}`;
    }
    case 'too_big': {
      const max = String(issue.maximum);
      if (issue.origin === 'string') return `it is too long: at most ${max} characters`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return `it has too many entries: at most ${max}`;
      return `it is too large: at most ${max}`;
    }
    case 'too_small': {
      const min = String(issue.minimum);
      if (issue.origin === 'string')
        return min === '1' ? 'it cannot be empty' : `it is too short: at least ${min} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `it needs at least ${min} entries`;
      return `it is too small: at least ${min}`;
    }
    case 'invalid_value':
      return `it must be ${issue.values.length === 1 ? '' : 'one of '}${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `${issue.keys.length === 1 ? 'this field is' : 'these fields are'} not part of it: ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}; remove ${issue.keys.length === 1 ? 'it' : 'them'}`;
    case 'invalid_union':
      return 'it has none of the forms this field accepts (see docs/API.md for this channel)';
    case 'invalid_format':
      return /^not /.test(issue.message) ? `it is ${issue.message}` : issue.message;
    default:
      return issue.message.replace(/^Invalid input: /, '');
  }
}

/**
 * The first problem of a refused request as one sentence: which field the user gave, what is
 * wrong with it, what to send instead. zod's own English ("Invalid input: expected string,
 * received undefined") names neither the field nor the remedy.
 */
export function zodSentence(error: z.ZodError): { message: string; path: string } {
  let issue: Issue | undefined = error.issues[0];
  while (issue?.code === 'invalid_union') {
    const closer = closestBranch(issue);
    if (!closer) break;
    issue = closer;
  }
  if (!issue) return { message: 'The request was not valid.', path: '' };
  const where = fieldPath(issue.path);
  if (where === '' && issue.code === 'invalid_type') {
    const got = received(issue);
    return {
      message: `The request body must be a JSON ${issue.expected}${got && got !== 'undefined' ? `, not ${article(got)}` : ''}.`,
      path: '',
    };
  }
  const text = problem(issue).replace(/[.;\s]+$/, '');
  return {
    message:
      where === ''
        ? `The request was not valid: ${text}.`
        : `The request was not valid at ${where}: ${text}.`,
    path: where,
  };
}
