import { errorEnvelope } from '@portal/contracts/call';
import { ApiError, NetworkError } from '../../lib/api-client';
import { fillPlaceholders } from '../../lib/forms/fill-placeholders';
import { retryAfterOf } from '../session/staff-session';
import { texts } from './texts';

/** "1 minute", "5 minutes": a wait, rounded up to whole minutes (at least one). */
function minutesText(seconds: number | undefined): string {
  const minutes = Math.max(1, Math.ceil((seconds ?? 60) / 60));
  return minutes === 1 ? texts.errors.minute : fillPlaceholders(texts.errors.minutes, { count: minutes });
}

export interface FailureText {
  message: string;
  /** The answer's correlation id, for the service desk. */
  reference?: string;
}

/**
 * What a failed staff call says, in plain words: 409 in the call's own (`conflict`), 429 with how long to
 * wait (a search's own sentence when `search`), 403, 404 and 503 as the console says them everywhere.
 */
export function failureText(
  error: unknown,
  { conflict, search = false }: { conflict?: string; search?: boolean } = {},
): FailureText {
  if (error instanceof NetworkError) return { message: texts.errors.network };
  if (!(error instanceof ApiError)) return { message: texts.errors.unexpected };
  const envelope = errorEnvelope.safeParse(error.body);
  const reference = envelope.success ? envelope.data.correlationId : error.correlationId;
  const say = (message: string): FailureText => ({ message, reference });
  switch (error.status) {
    case 400:
      return say(
        fillPlaceholders(texts.errors.badRequest, {
          message: envelope.success ? envelope.data.message : error.statusText,
        }),
      );
    case 403:
      return say(texts.errors.forbidden);
    case 404:
      return say(texts.errors.notFound);
    case 409:
      return say(conflict ?? texts.errors.unexpected);
    case 429:
      return say(
        fillPlaceholders(search ? texts.errors.tooManySearches : texts.errors.tooMany, {
          minutes: minutesText(retryAfterOf(error)),
        }),
      );
    case 503:
      return say(texts.errors.unavailable);
    default:
      return say(texts.errors.unexpected);
  }
}
