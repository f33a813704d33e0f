/**
 * Publish to a second instance (issue 42): how long after a publisher's publish on one instance another
 * instance on the same PostgreSQL database serves the new service alert to customers. Two portals are
 * started from scripts/start.mjs on DATABASE_URL (required: the embedded database is one process's), the
 * stand-in's editor and publisher sign in on the first (its stand-in provider is in that process), and
 * 10 times the editor submits a new alert message and the publisher publishes it; the second instance's
 * public settings (`GET /api/v1/content/getbytype?type=SiteSettings`) are read every 10 ms from the moment
 * the publish is sent until they carry the new message. Reports each time, the median and the worst. The
 * alert is put back as it was at the end (rolled back to the version it started at).
 *
 * Run with `DATABASE_URL=postgres://... npm run bench:content-live`. Give REDIS_URL too to run the
 * instances with Redis as they would in production (content itself goes by PostgreSQL's LISTEN/NOTIFY).
 */
import { median, sleep, startPortal, type Portal } from './support/portal';

const ROUNDS = 10;
const ports = [3397, 3398] as const;
const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) {
  console.error('bench:content-live: set DATABASE_URL (two instances need one shared PostgreSQL database)');
  process.exit(2);
}

/** A browser's cookies across the sign-in's redirects: name to value. */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): Response {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const value = pair!.slice(at + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(pair!.slice(0, at));
      else this.cookies.set(pair!.slice(0, at), value);
    }
    return res;
  }
  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }
}

interface Staff {
  call(method: string, path: string, body?: object): Promise<Response>;
}

/** Signs a stand-in staff member in on `url`, as a browser does; answers how to call the console. */
async function signInStaff(url: string, email: string): Promise<Staff> {
  const jar = new Jar();
  const go = async (path: string, form?: Record<string, string>) =>
    jar.take(
      await fetch(`${url}${path}`, {
        method: form ? 'POST' : 'GET',
        redirect: 'manual',
        headers: {
          cookie: jar.header(),
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(form ? { body: new URLSearchParams(form).toString() } : {}),
      }),
    );
  const local = (res: Response) => {
    const to = new URL(res.headers.get('location') ?? '/', url);
    return `${to.pathname}${to.search}`;
  };
  const authorize = await go(local(await go('/staff/sign-in')));
  const interaction = local(authorize);
  await go(interaction);
  await go(interaction, { step: 'credentials', email, password: 'StandIn-Console-2026' });
  const outbox = (await (await fetch(`${url}/dev/outbox/api?to=${encodeURIComponent(email)}`)).json()) as {
    messages: Array<{ body: string }>;
  };
  const code = /is (\d{6})\./.exec(outbox.messages[0]?.body ?? '')?.[1];
  if (!code) throw new Error('no sign-in code in the outbox');
  const finished = await go(interaction, { step: 'code', code });
  const callback = await go(local(await go(local(finished))));
  if (callback.status !== 303) throw new Error(`the console's callback answered ${callback.status}`);
  const session = await fetch(`${url}/staff/api/session`, { headers: { cookie: jar.header() } });
  if (!session.ok) throw new Error(`the session call answered ${session.status}`);
  const { csrfToken } = (await session.json()) as { csrfToken: string };
  return {
    call: (method, path, body) =>
      fetch(`${url}${path}`, {
        method,
        headers: {
          cookie: jar.header(),
          'x-csrf-token': csrfToken,
          origin: url,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }),
  };
}

async function ok(res: Promise<Response>): Promise<{ version: number; body: Record<string, unknown> }> {
  const answer = await res;
  if (!answer.ok) throw new Error(`${answer.url} answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as { version: number; body: Record<string, unknown> };
}

async function alertMessageAt(url: string): Promise<string | undefined> {
  const res = await fetch(`${url}/api/v1/content/getbytype?type=SiteSettings`, {
    headers: { 'cache-control': 'no-cache' },
  });
  const [settings] = (await res.json()) as Array<{ serviceAlert?: { message?: string } }>;
  return settings?.serviceAlert?.message;
}

const portals: Portal[] = [];
try {
  for (const port of ports) {
    portals.push(
      await startPortal({
        port,
        env: {
          DATABASE_URL: databaseUrl,
          ...(process.env['REDIS_URL'] ? { REDIS_URL: process.env['REDIS_URL'] } : {}),
        },
      }),
    );
  }
  const [first, second] = portals as [Portal, Portal];
  const editor = await signInStaff(first.url, 'sam.carter@staff.example.co.uk');
  const publisher = await signInStaff(first.url, 'jo.hughes@staff.example.co.uk');
  const startedAt = (await ok(editor.call('GET', '/staff/api/content/service-alert'))).version;

  const times: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const item = await ok(editor.call('GET', '/staff/api/content/service-alert'));
    const message = `<p>bench:content-live round ${round} at ${Date.now()}</p>`;
    await ok(
      editor.call('PUT', '/staff/api/content/service-alert/draft', {
        body: { ...item.body, visible: true, message },
        baseVersion: item.version,
        submit: true,
      }),
    );
    const sent = performance.now();
    const publishing = ok(
      publisher.call('POST', '/staff/api/content/service-alert/publish', { baseVersion: item.version }),
    );
    let seen: number | undefined;
    while (seen === undefined) {
      if ((await alertMessageAt(second.url)) === message) seen = performance.now();
      else if (performance.now() - sent > 30_000) throw new Error(`round ${round}: not seen after 30 s`);
      else await sleep(10);
    }
    await publishing;
    times.push(seen - sent);
    console.log(`  round ${String(round).padStart(2)}: ${(seen - sent).toFixed(0).padStart(5)} ms`);
    await sleep(200);
  }
  await ok(
    publisher.call('POST', '/staff/api/content/service-alert/rollback', {
      version: startedAt,
      reason: 'bench:content-live put back',
    }),
  );
  console.log(
    `\nPublish on one instance to the new alert served by the other (${ROUNDS} publishes, PostgreSQL): median ${median(times).toFixed(0)} ms, worst ${Math.max(...times).toFixed(0)} ms`,
  );
} finally {
  for (const portal of portals.reverse()) await portal.stop();
}
