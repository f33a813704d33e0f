import type { z } from 'zod';
import { HttpError } from './errors';

/**
 * Parses input with a contract schema. Failure is a 400 naming each bad field; nothing else runs.
 * `where` names the part of the request, for the message.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'body' | 'query' | 'params' = 'body',
): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fieldErrors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : where;
    fieldErrors[key] ??= issue.message;
  }
  throw new HttpError(400, 'BAD_REQUEST', `The request ${where} is not valid.`, fieldErrors);
}

/** Checks a response against its contract in development and tests; a mismatch is our bug. */
export function checkOutput<S extends z.ZodType>(schema: S, value: z.input<S>): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new Error(`Response does not match its contract: ${result.error.message}`);
  }
  return result.data;
}
