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
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : where;
    fieldErrors[key] ??= issue.message;
  }
  throw new HttpError(400, 'BAD_REQUEST', `The request ${where} is not valid.`, fieldErrors);
}

/** Checks a response against its contract in development and tests; a mismatch is our bug. */
export function checkOutput<S extends z.core.$ZodType>(schema: S, value: z.input<S>): z.infer<S> {
  const result = z.safeParse(schema, value);
  if (!result.success) {
    throw new Error(`Response does not match its contract: ${result.error.message}`);
  }
  return result.data;
}
