import { createTransport } from 'nodemailer';
import { DeliveryError, type NotifierAdapter } from './message';

/** Email through an SMTP server (SMTP_URL, e.g. smtps://user:pass@smtp.example.com:465). */
export function smtpAdapter(smtpUrl: string, from: string): NotifierAdapter {
  // Nodemailer waits 2 minutes to connect and 10 minutes on a silent socket by default: far longer than
  // a queued message's claim (5 minutes), after which another instance would send it again.
  const transport = createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    name: 'smtp',
    async deliver(message, options) {
      let timer: NodeJS.Timeout | undefined;
      try {
        const sent = transport.sendMail({
          from,
          to: message.to,
          subject: message.subject ?? '',
          // Both parts: nodemailer sends multipart/alternative, the text first (the fallback).
          text: message.text,
          ...(message.html ? { html: message.html } : {}),
        });
        if (options?.timeoutMs === undefined) await sent;
        else {
          // The send goes on in the background (nodemailer has no cancel); it is reported as not sent.
          sent.catch(() => undefined);
          await Promise.race([
            sent,
            new Promise<never>((_, reject) => {
              timer = setTimeout(
                () => reject(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
                options.timeoutMs,
              );
            }),
          ]);
        }
      } catch (error) {
        // The provider's reply can echo the message; only its code goes further.
        const code =
          (error as { responseCode?: number; code?: string }).responseCode ??
          (error as { code?: string }).code;
        // A 5xx reply is the server's refusal for good (no such mailbox, policy): never worth a retry.
        const permanent = typeof code === 'number' && code >= 500 && code < 600;
        throw new DeliveryError(`SMTP delivery failed${code ? ` (${code})` : ''}`, { permanent });
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
