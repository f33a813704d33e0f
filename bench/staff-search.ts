/**
 * Staff search benchmark (issue 41): throughput and latency of the contact centre's search
 * (`POST /staff/api/customers/search`) by each kind (customer id, email, policy number, surname with date
 * of birth and postcode), against GET /healthz on the same server in the same run. On the embedded
 * database and, when DATABASE_URL is set, on that PostgreSQL server too. A staff member (the stand-in's
 * agent) signs in over HTTP as a browser does (the stand-in's form and the code from the dev outbox); the
 * per-staff search limit is lifted for the run (STAFF_SEARCHES_PER_10_MINUTES). Every search writes its
 * audit rows, as in use. The figures are on the demo data (a few customers): issue 43's million-customer
 * database is where they must hold.
 *
 * Run with `npm run bench:staff`. Options: `--duration S` (seconds per scenario, default 10),
 * `--connections N` (default 10), `--database embedded|postgres` (one; default both).
 */
import autocannon from 'autocannon';
import { startPortal, type Portal } from './support/portal';

const ports = { embedded: 3395, postgres: 3396 } as const;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`bench:staff: --${name} needs a whole number of at least 1`);
    process.exit(2);
  }
  return value;
}
const seconds = option('duration', 10);
const connections = option('connections', 10);
const onlyAt = process.argv.indexOf('--database');
const only = onlyAt === -1 ? undefined : process.argv[onlyAt + 1];

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

/** Signs the stand-in's agent in; answers the console's cookie header and CSRF token. */
async function signInStaff(url: string): Promise<{ cookie: string; csrfToken: string }> {
  const email = 'alex.morgan@staff.example.co.uk';
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
  return { cookie: jar.header(), csrfToken: ((await session.json()) as { csrfToken: string }).csrfToken };
}

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function load(name: string, url: string, request: autocannon.Request): Promise<Figures> {
  // A 2 s warm-up of the same request, not reported.
  await autocannon({ url, connections, duration: 2, pipelining: 1, requests: [request] });
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    pipelining: 1,
    requests: [request],
  });
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

const searches = [
  { kind: 'customerId', query: { by: 'customerId', customerId: 'C1000001' } },
  { kind: 'email', query: { by: 'email', email: 'margaret.thompson@example.co.uk' } },
  { kind: 'policyNumber', query: { by: 'policyNumber', policyNumber: '102X4567891' } },
  {
    kind: 'nameAndBirth',
    query: { by: 'nameAndBirth', surname: 'Thompson', dateOfBirth: '1952-04-17', postcode: 'HR8 2AB' },
  },
];

async function run(database: 'embedded' | 'postgres'): Promise<Figures[]> {
  const portal: Portal = await startPortal({
    port: ports[database],
    env: {
      STAFF_SEARCHES_PER_10_MINUTES: '1000000',
      ...(database === 'postgres' ? { DATABASE_URL: process.env['DATABASE_URL']! } : {}),
    },
  });
  try {
    const { cookie, csrfToken } = await signInStaff(portal.url);
    const figures = [
      await load('GET /healthz', `${portal.url}/healthz`, { method: 'GET', path: '/healthz' }),
    ];
    for (const { kind, query } of searches) {
      figures.push(
        await load(`search by ${kind}`, portal.url, {
          method: 'POST',
          path: '/staff/api/customers/search',
          headers: {
            cookie,
            'x-csrf-token': csrfToken,
            origin: portal.url,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ reason: 'bench:staff 0001', query }),
        }),
      );
    }
    return figures;
  } finally {
    await portal.stop();
  }
}

const databases: Array<'embedded' | 'postgres'> = [
  ...(only === undefined || only === 'embedded' ? (['embedded'] as const) : []),
  ...((only === undefined || only === 'postgres') && process.env['DATABASE_URL']
    ? (['postgres'] as const)
    : []),
];
let failed = false;
for (const database of databases) {
  const figures = await run(database);
  const baseline = figures[0]!.rps;
  console.log(`\nStaff search on ${database}, ${connections} connections, ${seconds} s each:`);
  console.log('  call                          req/s   ratio to /healthz   p50 ms   p99 ms   not 2xx');
  for (const f of figures) {
    console.log(
      `  ${f.name.padEnd(28)} ${f.rps.toFixed(0).padStart(6)}   ${(f.rps / baseline).toFixed(2).padStart(17)}   ${String(f.p50).padStart(6)}   ${String(f.p99).padStart(6)}   ${String(f.non2xx + f.errors).padStart(7)}`,
    );
    if (f.non2xx + f.errors > 0) failed = true;
  }
}
if (failed) {
  console.error('\nbench:staff: some answers were not 2xx (see the table)');
  process.exit(1);
}
