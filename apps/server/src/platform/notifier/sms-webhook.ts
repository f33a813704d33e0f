import { DeliveryError, type NotifierAdapter } from './message';

/**
 * Text and voice messages through an SMS/voice gateway over HTTPS: POSTs `{channel, to, text}` as JSON
 * with a bearer token, and treats any non-2xx answer as a failed delivery. Most providers (or a small
 * relay in front of them) accept this shape; the text of a voice message is read out by the provider.
 */
/** How long a queued send waits for the gateway before it is retried later. */
const QUEUED_SEND_TIMEOUT_MS = 10_000;

export function smsWebhookAdapter(url: string, token: string | undefined): NotifierAdapter {
  return {
    name: 'sms-webhook',
    async deliver(message, options) {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify({ channel: message.channel, to: message.to, text: message.text }),
          signal: AbortSignal.timeout(options?.timeoutMs ?? QUEUED_SEND_TIMEOUT_MS),
        });
      } catch (error) {
        throw new DeliveryError(
          error instanceof Error && error.name === 'TimeoutError'
            ? 'SMS gateway did not answer'
            : 'SMS gateway unreachable',
        );
      }
      if (!response.ok) throw new DeliveryError(`SMS gateway answered ${response.status}`);
    },
  };
}
