import { z } from 'zod';
import { HttpError } from './errors';

// The contracts are written with zod/mini, which carries no messages of its own: an issue without a
// message of the contract's (a wrong type, a string over its maximum) takes its text from the
// configured locale. Full zod installs English when it loads; this keeps the 400s in clear English
// whichever module loads first.
z.config(z.locales.en());

/**
 * Parses input with a contract schema. Failure is a 400 naming each bad field; nothing else runs.
 * `where` names the part of the request, for the message.
 */
export function parseInput<S extends z.core.$ZodType>(
  schema: S,
  value: unknown,
  where: 'body' | 'query' | 'params' = 'body',
): z.infer<S> {
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  const fieldErrors: Record<string, string> = {};
  for (const issue of closestBranch(result.error.issues)) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : where;
    fieldErrors[key] ??= issue.message;
  }
  throw new HttpError(400, 'BAD_REQUEST', `The request ${where} is not valid.`, fieldErrors);
}

type Issue = z.core.$ZodIssue;

/**
 * A value that fits none of a union's shapes is reported against the shape it came closest to (the
 * branch with the fewest problems, the first on a tie), so a sign-in without a password says "password"
 * rather than "body".
 */
function closestBranch(issues: readonly Issue[]): readonly Issue[] {
  const [only] = issues;
  if (issues.length !== 1 || only?.code !== 'invalid_union' || only.errors.length === 0) return issues;
  const best = only.errors.reduce((a, b) => (b.length < a.length ? b : a));
  return closestBranch(best.map((issue) => ({ ...issue, path: [...only.path, ...issue.path] }) as Issue));
}

/** Checks a response against its contract in development and tests; a mismatch is our bug. */
export function checkOutput<S extends z.core.$ZodType>(schema: S, value: z.input<S>): z.infer<S> {
  const result = z.safeParse(schema, value);
  if (!result.success) {
    throw new Error(`Response does not match its contract: ${result.error.message}`);
  }
  return result.data;
}
