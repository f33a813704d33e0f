import type { FastifyInstance } from 'fastify';
import { POLICY_NUMBER_PATTERN } from '@portal/contracts/fields';
import type { Config } from '../../config';
import { badRequest, notFound } from '../../platform/errors';
import { policySystemActions, type PolicySystemAction } from './policy.service';

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * Without a configured policy system (POLICY_SYSTEM_URL), links that would leave for it (make a change,
 * view a renewal, request a change, continue a quote) come here: a plain page that says which action and
 * which policy or quote the customer would continue with, so every link works on a laptop. Never mounted
 * when a real policy system is configured.
 */
export async function installPolicySystemStandIn(app: FastifyInstance, config: Config) {
  if (config.policySystemUrl !== `${config.publicUrl}/policy-system`) return;
  app.get<{ Params: { action: string }; Querystring: Record<string, string | string[] | undefined> }>(
    '/policy-system/:action',
    async (request, reply) => {
      const action = request.params.action;
      if (!Object.hasOwn(policySystemActions, action)) throw notFound('There is no such page.');
      const key = action === 'quote-and-buy' ? 'quote' : 'policy';
      const reference = request.query[key];
      if (typeof reference !== 'string' || !POLICY_NUMBER_PATTERN.test(reference)) {
        throw badRequest(`Give the ${key} number.`, { [key]: 'Enter a valid policy number' });
      }
      const title = policySystemActions[action as PolicySystemAction];
      const what = key === 'quote' ? 'quote' : 'policy';
      const html = `<!doctype html>
<html lang="en-GB">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} - policy system (stand-in)</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#0b0c0c}
a{color:#1d70b8}a:focus{outline:3px solid #fd0;background:#fd0;color:#0b0c0c}</style></head>
<body><main>
<h1>${escape(title)}</h1>
<p>This is where you would continue in the insurer's policy system with your ${what} <strong>${escape(reference)}</strong>.</p>
<p>The policy system is not connected to this copy of the portal (set <code>POLICY_SYSTEM_URL</code> to connect it).</p>
<p><a href="/account/dashboard">Back to your account</a></p>
</main></body></html>`;
      return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
    },
  );
}
