import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound } from './errors';
import type { PlatformContext } from './module';
import { escapeHtml } from './notifier/email-template';
import { readOutbox, type OutboxRow } from './notifier/outbox';
import { parseInput } from './validate';

const outboxQuery = z.object({
  to: z.string().trim().min(1).max(254).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/**
 * The page's own policy, inherited by the emails' frames: their inline styles, nothing fetched, no
 * script (the frames are sandboxed too), the form to itself, never framed.
 */
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

/** An email's HTML part as it looks, in a sandboxed frame (its links open in a new tab). */
const htmlPart = (m: OutboxRow) =>
  m.html
    ? `<details><summary>HTML part</summary>` +
      `<iframe sandbox="allow-popups allow-popups-to-escape-sandbox" title="HTML part of ${escapeHtml(m.subject ?? m.kind)}"` +
      ` width="640" height="560" srcdoc="${escapeHtml(m.html.replace('<head>', '<head><base target="_blank">'))}"></iframe>` +
      `</details>`
    : '';

function page(messages: OutboxRow[], to: string | undefined): string {
  const rows = messages
    .map(
      (m) =>
        `<tr><td>${escapeHtml(m.createdAt)}</td><td>${m.channel}</td><td>${escapeHtml(m.to)}</td>` +
        `<td>${escapeHtml(m.kind)}</td><td>${m.subject ? `<strong>${escapeHtml(m.subject)}</strong><br>` : ''}` +
        `<pre>${escapeHtml(m.body)}</pre>${htmlPart(m)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en-GB">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dev outbox</title></head>
<body>
<main>
<h1>Dev outbox</h1>
<p>Text messages, voice calls and emails the portal would have sent. Not available in production.</p>
<form method="get" action="">
<label for="to">Recipient (phone number or email)</label>
<input id="to" name="to" type="text" value="${escapeHtml(to ?? '')}" autocomplete="off">
<button type="submit">Show</button>
</form>
<table>
<caption>${messages.length} newest message${messages.length === 1 ? '' : 's'}${to ? ` to ${escapeHtml(to)}` : ''}</caption>
<thead><tr><th scope="col">Sent</th><th scope="col">Channel</th><th scope="col">To</th><th scope="col">Kind</th><th scope="col">Message</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</main>
</body>
</html>`;
}

/**
 * The dev outbox: `GET /dev/outbox` (a page) and `GET /dev/outbox/api?to=...` (JSON, newest first) show
 * what the outbox adapter recorded, so a person or a test can read a code or link; the page shows an
 * email's HTML part too, as it looks. Both answer 404 in production or when DEV_OUTBOX=off.
 */
export function installDevOutbox(app: FastifyInstance, ctx: PlatformContext) {
  const guard = () => {
    if (!ctx.config.devOutbox) throw notFound();
  };
  app.get('/dev/outbox/api', async (request, reply) => {
    guard();
    const query = parseInput(outboxQuery, request.query, 'query');
    reply.header('cache-control', 'no-store');
    return { messages: await readOutbox(ctx.db, query.to, query.limit) };
  });
  app.get('/dev/outbox', async (request, reply) => {
    guard();
    const query = parseInput(outboxQuery, request.query, 'query');
    const messages = await readOutbox(ctx.db, query.to, query.limit);
    return reply
      .header('cache-control', 'no-store')
      .header('content-security-policy', PAGE_CSP)
      .type('text/html; charset=utf-8')
      .send(page(messages, query.to));
  });
}
