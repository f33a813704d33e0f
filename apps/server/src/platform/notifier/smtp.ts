import { createTransport } from 'nodemailer';
import { DeliveryError, type NotifierAdapter } from './message';

/** Email through an SMTP server (SMTP_URL, e.g. smtps://user:pass@smtp.example.com:465). */
export function smtpAdapter(smtpUrl: string, from: string): NotifierAdapter {
  const transport = createTransport(smtpUrl);
  return {
    name: 'smtp',
    async deliver(message) {
      try {
        await transport.sendMail({
          from,
          to: message.to,
          subject: message.subject ?? '',
          text: message.text,
        });
      } catch (error) {
        // The provider's reply can echo the message; only its code goes further.
        const code =
          (error as { responseCode?: number; code?: string }).responseCode ??
          (error as { code?: string }).code;
        throw new DeliveryError(`SMTP delivery failed${code ? ` (${code})` : ''}`);
      }
    },
  };
}
