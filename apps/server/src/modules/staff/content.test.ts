import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '@portal/contracts/call';
import { siteSettings } from '@portal/contracts/content';
import { contentItemDetail, operationsState, type ContentItemDetail } from '@portal/contracts/staff-content';
import {
  createTestApp,
  dropIsolatedDatabases,
  isolatedDatabases,
  sameDatabaseAgain,
  type TestContext,
} from '../../../test/helpers';
import { staffConsole, staffOf, type StaffConsole } from '../../../test/staff-sign-in';
import { loggerOptions } from '../../app';
import type { Db } from '../../platform/db';
import { enqueueMessage } from '../../platform/notifier/queue';
import { exportPublishedContent } from '../content/content-export';
import { defaultContentDir, loadContentFiles } from '../content/content.seed';
import { seedContentIfChanged } from '../content/editorial';

/*
 * Issue 42: content changed in the console. An editor's draft of the service alert (checked as the files
 * are: a script is refused, a bad field named), submitted; a publisher publishes it (four eyes: never their
 * own change); customers get it, the history says who and what changed, and a rollback publishes the
 * earlier version again. An operator's switches. A restart keeps the edit and reports that the file says
 * otherwise. Each database of the test's own (isolated): it changes site-wide content.
 */

const settingsUrl = '/api/v1/content/getbytype?type=SiteSettings';
const NEW_MESSAGE =
  '<p>Our phone lines are down until 3pm. You can still <strong>make a claim online</strong>.</p>';

describe.each(isolatedDatabases())('content in the staff console on $name', ({ open }) => {
  let db: Db;
  let t: TestContext;
  let editor: StaffConsole;
  let publisher: StaffConsole;
  let operator: StaffConsole;

  beforeAll(async () => {
    db = await open();
    t = await createTestApp({}, { db });
    editor = await staffConsole(t.app, staffOf.editor);
    publisher = await staffConsole(t.app, staffOf.publisher);
    operator = await staffConsole(t.app, staffOf.operator);
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
    await dropIsolatedDatabases().catch(() => undefined);
  });

  const get = async (who: StaffConsole, url: string) =>
    t.app.inject({ method: 'GET', url, headers: { cookie: who.jar.header() } });
  const send = (who: StaffConsole, method: 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { cookie: who.jar.header(), 'x-csrf-token': who.csrfToken },
      ...(payload ? { payload } : {}),
    });
  const item = async (who: StaffConsole, id: string): Promise<ContentItemDetail> => {
    const res = await get(who, `/staff/api/content/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return contentItemDetail.parse(res.json());
  };
  const customerSettings = async () => {
    const res = await t.app.inject({ method: 'GET', url: settingsUrl });
    expect(res.statusCode).toBe(200);
    return siteSettings.parse((res.json() as unknown[])[0]);
  };

  it('lists every item: the service alert first, each modal window and each page', async () => {
    const res = await get(editor, '/staff/api/content');
    expect(res.statusCode).toBe(200);
    const { items } = res.json<{ items: Array<{ id: string; version: number; fileDiffers: boolean }> }>();
    expect(items[0]).toMatchObject({ id: 'service-alert', version: 1, fileDiffers: false });
    const ids = items.map((i) => i.id);
    expect(ids).toEqual(
      expect.arrayContaining(['site-settings', 'navigation', 'modal-log-out-modal-window-block']),
    );
    expect(ids.filter((id) => id.startsWith('page.')).length).toBeGreaterThan(30);
  });

  it('refuses a script and names a bad field (422), saving nothing', async () => {
    const alert = await item(editor, 'service-alert');
    const body = alert.body as Record<string, unknown>;
    for (const message of [
      '<p>Hello</p><script>alert(1)</script>',
      '<p onclick="alert(1)">Hello</p>',
      '<a href="javascript:alert(1)">Hello</a>',
      '<img src=x onerror=alert(1)>',
    ]) {
      const res = await send(editor, 'PUT', '/staff/api/content/service-alert/draft', {
        body: { ...body, message },
        baseVersion: alert.version,
      });
      expect(res.statusCode, message).toBe(422);
      const error = errorEnvelope.parse(res.json());
      expect(Object.keys(error.fieldErrors ?? {})).toEqual(['message']);
    }
    const empty = await send(editor, 'PUT', '/staff/api/content/service-alert/draft', {
      body: { ...body, title: '' },
      baseVersion: alert.version,
    });
    expect(empty.statusCode).toBe(422);
    expect(errorEnvelope.parse(empty.json()).fieldErrors).toEqual({ title: 'Enter the title' });
    expect((await item(editor, 'service-alert')).draft).toBeNull();
  });

  it('publishes an editor’s submitted change (never by the editor), live for customers, with its history', async () => {
    const alert = await item(editor, 'service-alert');
    const saved = await send(editor, 'PUT', '/staff/api/content/service-alert/draft', {
      body: { ...(alert.body as object), visible: true, message: NEW_MESSAGE },
      baseVersion: alert.version,
      submit: true,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const draft = contentItemDetail.parse(saved.json()).draft;
    expect(draft).toMatchObject({ state: 'submitted', editedBy: 'Sam Carter', mayPublish: false });
    expect(draft?.changes.map((c) => c.path).sort()).toEqual(['message', 'visible']);

    // An editor has no publishing role; customers still see the published alert.
    const byEditor = await editor.post('/staff/api/content/service-alert/publish', { baseVersion: 1 });
    expect(byEditor.statusCode).toBe(403);
    expect((await customerSettings()).serviceAlert.visible).toBe(false);

    expect((await item(publisher, 'service-alert')).draft?.mayPublish).toBe(true);
    const published = await publisher.post('/staff/api/content/service-alert/publish', {
      baseVersion: alert.version,
      reason: 'INC-1042 phone lines',
    });
    expect(published.statusCode, published.body).toBe(200);
    const now = contentItemDetail.parse(published.json());
    expect(now).toMatchObject({ version: 2, draft: null });
    expect(now.history[0]).toMatchObject({
      version: 2,
      source: 'console',
      published: { name: 'Jo Hughes' },
      editedBy: 'Sam Carter',
      reason: 'INC-1042 phone lines',
    });
    expect(now.history[0]?.changes).toContainEqual({
      path: 'message',
      before: expect.stringContaining('planned maintenance'),
      after: NEW_MESSAGE,
    });

    // Customers get it from this instance at once (the publish forgot the cached content).
    const settings = await customerSettings();
    expect(settings.serviceAlert).toMatchObject({ visible: true, message: NEW_MESSAGE });
  });

  it('is served by a second instance on the same database once published, and a rollback likewise', async () => {
    const otherDb = await sameDatabaseAgain(db);
    const second = await createTestApp({}, { db: otherDb });
    try {
      const messageAt = async (app: TestContext['app']) => {
        const res = await app.inject({ method: 'GET', url: settingsUrl });
        return siteSettings.parse((res.json() as unknown[])[0]).serviceAlert;
      };
      // The second instance holds the alert as it is (and its clock stands still: no cache runs out).
      expect(await messageAt(second.app)).toMatchObject({ visible: true, message: NEW_MESSAGE });
      const alert = await item(editor, 'service-alert');
      const message = '<p>Second instance check.</p>';
      await send(editor, 'PUT', '/staff/api/content/service-alert/draft', {
        body: { ...(alert.body as object), message },
        baseVersion: alert.version,
        submit: true,
      });
      const published = await publisher.post('/staff/api/content/service-alert/publish', {
        baseVersion: alert.version,
      });
      expect(published.statusCode).toBe(200);
      await expect
        .poll(async () => (await messageAt(second.app)).message, { timeout: 5000, interval: 50 })
        .toBe(message);
      const back = await publisher.post('/staff/api/content/service-alert/rollback', {
        version: alert.version,
      });
      expect(back.statusCode).toBe(200);
      await expect
        .poll(async () => (await messageAt(second.app)).message, { timeout: 5000, interval: 50 })
        .toBe(NEW_MESSAGE);
    } finally {
      await second.close();
      if (otherDb !== db) await otherDb.close();
    }
  });

  it('keeps four eyes: a publisher who is also the editor cannot publish their own change', async () => {
    const both = await createTestApp(
      {
        STAFF_ROLE_GROUPS: JSON.stringify({
          editor: ['portal-publishers'],
          publisher: ['portal-publishers'],
        }),
      },
      { db },
    );
    try {
      const jo = await staffConsole(both.app, staffOf.publisher);
      const modal = 'modal-welcome-modal-window-block';
      const current = contentItemDetail.parse(
        (
          await both.app.inject({
            method: 'GET',
            url: `/staff/api/content/${modal}`,
            headers: { cookie: jo.jar.header() },
          })
        ).json(),
      );
      const saved = await both.app.inject({
        method: 'PUT',
        url: `/staff/api/content/${modal}/draft`,
        headers: { cookie: jo.jar.header(), 'x-csrf-token': jo.csrfToken },
        payload: {
          body: { ...(current.body as object), heading: 'Welcome to your new account' },
          baseVersion: current.version,
          submit: true,
        },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const own = await jo.post(`/staff/api/content/${modal}/publish`, { baseVersion: current.version });
      expect(own.statusCode).toBe(403);
      expect(own.json()).toMatchObject({ code: 'FOUR_EYES' });
      const discarded = await both.app.inject({
        method: 'DELETE',
        url: `/staff/api/content/${modal}/draft`,
        headers: { cookie: jo.jar.header(), 'x-csrf-token': jo.csrfToken },
      });
      expect(discarded.json()).toMatchObject({ draft: null });
    } finally {
      await both.close();
    }
  });

  it('rolls back by publishing the earlier version again, as a new version', async () => {
    const res = await publisher.post('/staff/api/content/service-alert/rollback', {
      version: 1,
      reason: 'INC-1042 over',
    });
    expect(res.statusCode, res.body).toBe(200);
    const now = contentItemDetail.parse(res.json());
    expect(now.version).toBe(5);
    expect(now.history[0]).toMatchObject({
      source: 'rollback',
      restoredVersion: 1,
      published: { name: 'Jo Hughes' },
    });
    expect((await customerSettings()).serviceAlert.visible).toBe(false);
  });

  it('lets an operator turn maintenance mode on until a time, with a reason, and it ends by itself', async () => {
    const noReason = await operator.post('/staff/api/operations/maintenance', { on: true });
    expect(noReason.statusCode).toBe(400);
    const endsAt = new Date(t.clock.now().getTime() + 30 * 60_000).toISOString();
    const on = await operator.post('/staff/api/operations/maintenance', {
      on: true,
      endsAt,
      reason: 'CHG-7 database upgrade',
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(operationsState.parse(on.json()).maintenance).toEqual({ on: true, endsAt, inForce: true });
    expect((await customerSettings()).isMaintenanceMode).toBe(true);
    t.clock.advance(31 * 60_000);
    expect((await customerSettings()).isMaintenanceMode).toBe(false);
    // Half an hour without a call ends a staff session: in again.
    editor = await staffConsole(t.app, staffOf.editor);
    publisher = await staffConsole(t.app, staffOf.publisher);
    operator = await staffConsole(t.app, staffOf.operator);
    // Publishers and editors have no switches.
    expect(
      (await publisher.post('/staff/api/operations/maintenance', { on: false, reason: 'CHG-7' })).statusCode,
    ).toBe(403);
    const off = await operator.post('/staff/api/operations/maintenance', { on: false, reason: 'CHG-7 done' });
    expect(operationsState.parse(off.json()).maintenance).toEqual({
      on: false,
      endsAt: null,
      inForce: false,
    });
  });

  it('shows the service alert only inside the window an operator gives it', async () => {
    const from = new Date(t.clock.now().getTime() + 10 * 60_000).toISOString();
    const until = new Date(t.clock.now().getTime() + 20 * 60_000).toISOString();
    const res = await operator.post('/staff/api/operations/service-alert', {
      visible: true,
      startsAt: from,
      endsAt: until,
      reason: 'CHG-8 planned work',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(operationsState.parse(res.json()).serviceAlert).toMatchObject({ visible: true, showing: false });
    expect((await customerSettings()).serviceAlert.visible).toBe(false);
    t.clock.advance(11 * 60_000);
    expect((await customerSettings()).serviceAlert.visible).toBe(true);
    t.clock.advance(10 * 60_000);
    expect((await customerSettings()).serviceAlert.visible).toBe(false);
    operator = await staffConsole(t.app, staffOf.operator);
    const hidden = await operator.post('/staff/api/operations/service-alert', {
      visible: false,
      reason: 'CHG-8 done',
    });
    expect(operationsState.parse(hidden.json()).serviceAlert).toMatchObject({
      visible: false,
      startsAt: null,
    });
    editor = await staffConsole(t.app, staffOf.editor);
    publisher = await staffConsole(t.app, staffOf.publisher);
  });

  it('changes an experiment’s weights (adding up to 1) and the definitions served follow', async () => {
    const bad = await operator.post('/staff/api/operations/flags', {
      key: 'login-intro-variant',
      weights: [0.5, 0.6],
      reason: 'EXP-3 rebalance',
    });
    expect(bad.statusCode).toBe(422);
    const good = await operator.post('/staff/api/operations/flags', {
      key: 'login-intro-variant',
      weights: [0.8, 0.2],
      reason: 'EXP-3 rebalance',
    });
    expect(good.statusCode, good.body).toBe(200);
    const defs = await t.app.inject({ method: 'GET', url: `/api/features/${t.config.featureFlagSdkKey}` });
    expect(defs.json()).toMatchObject({
      features: { 'login-intro-variant': { rules: [{ weights: [0.8, 0.2] }] } },
    });
  });

  it('lets an operator see dead letters without recipient or text, send one again and discard another', async () => {
    const now = t.clock.now();
    const ids: number[] = [];
    for (const kind of ['document-notice', 'registration-activation']) {
      const id = await enqueueMessage(
        db,
        { channel: 'email', to: 'dead.letter@example.org', kind, subject: 'Hello', text: 'secret body' },
        now,
      );
      await db.query(
        `UPDATE message_queue SET status = 'dead', attempts = 8, last_error = $2 WHERE id = $1`,
        [id, 'SMTP delivery failed (550)'],
      );
      ids.push(id);
    }
    const listed = await get(operator, '/staff/api/operations/dead-letters');
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toMatch(/dead\.letter@example|secret body/);
    const items = listed.json<{ items: Array<{ id: string; kind: string; lastError: string }> }>().items;
    expect(items.filter((i) => ids.map(String).includes(i.id))).toEqual([
      expect.objectContaining({
        id: String(ids[1]),
        kind: 'registration-activation',
        lastError: 'SMTP delivery failed (550)',
      }),
      expect.objectContaining({ id: String(ids[0]), kind: 'document-notice' }),
    ]);
    const noReason = await operator.post(`/staff/api/operations/dead-letters/${ids[0]}/retry`, {});
    expect(noReason.statusCode).toBe(400);
    expect(
      (
        await operator.post(`/staff/api/operations/dead-letters/${ids[0]}/retry`, {
          reason: 'INC-7 mail server back',
        })
      ).statusCode,
    ).toBe(204);
    expect(
      (
        await operator.post(`/staff/api/operations/dead-letters/${ids[1]}/discard`, {
          reason: 'INC-7 duplicate',
        })
      ).statusCode,
    ).toBe(204);
    const { rows } = await db.query<{ id: string; status: string; attempts: number }>(
      'SELECT id::text, status, attempts FROM message_queue WHERE id = ANY($1::bigint[]) ORDER BY id',
      [ids],
    );
    // The retried one is back in the queue (or already sent by the worker); the discarded one is gone.
    expect(rows.map((r) => r.id)).toEqual([String(ids[0])]);
    expect(rows[0]?.status).not.toBe('dead');
    // Done once: the second time there is no such dead letter.
    expect(
      (await operator.post(`/staff/api/operations/dead-letters/${ids[1]}/discard`, { reason: 'INC-7 again' }))
        .statusCode,
    ).toBe(404);
    await db.query('DELETE FROM message_queue WHERE id = ANY($1::bigint[])', [ids]);
  });

  it('keeps an edit over a restart and reports the file that says otherwise (logged without personal data)', async () => {
    const alert = await item(editor, 'service-alert');
    await send(editor, 'PUT', '/staff/api/content/service-alert/draft', {
      body: { ...(alert.body as object), title: 'Phone lines down' },
      baseVersion: alert.version,
      submit: true,
    });
    expect(
      (await publisher.post('/staff/api/content/service-alert/publish', { baseVersion: alert.version }))
        .statusCode,
    ).toBe(200);
    await t.close();

    // The start: the seed (the files), then the app.
    const seeded = await seedContentIfChanged(t.app.ctx);
    expect(seeded).not.toBe('unchanged');
    expect(seeded !== 'unchanged' && seeded.conflicts).toContain('service-alert');
    let log = '';
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString();
        done();
      },
    });
    t = await createTestApp(
      { LOG_LEVEL: 'warn' },
      { db, logger: (config) => ({ ...loggerOptions(config), stream }) },
    );
    editor = await staffConsole(t.app, staffOf.editor);

    expect((await customerSettings()).serviceAlert.title).toBe('Phone lines down');
    const after = await item(editor, 'service-alert');
    expect(after.fileDiffers?.changes).toContainEqual({
      path: 'title',
      before: 'Phone lines down',
      after: 'Planned maintenance',
    });
    const warning = log.split('\n').find((line) => line.includes('Content files differ'));
    // The flags and the page running the experiment were switched by the operator above: theirs too.
    expect((JSON.parse(warning!) as { items: string[] }).items).toEqual(
      expect.arrayContaining(['service-alert', 'feature-flags']),
    );
    expect(warning).not.toMatch(/Sam Carter|Jo Hughes|staff\.example/);
    const list = (await get(editor, '/staff/api/content')).json<{
      items: Array<{ id: string; fileDiffers: boolean }>;
    }>();
    expect(list.items.find((i) => i.id === 'service-alert')?.fileDiffers).toBe(true);
  });
  it('writes the published content back to the files (content:export), and the difference is gone', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'content-export-'));
    try {
      await cp(defaultContentDir, dir, { recursive: true });
      const written = await exportPublishedContent(db, dir);
      expect(written).toEqual(expect.arrayContaining(['site-settings.json', 'feature-flags.json']));
      // Files whose items were not changed are left as they are written.
      expect(written).not.toContain('navigation.json');
      expect(written.filter((f) => f.startsWith('modals/'))).toEqual([]);
      const file = JSON.parse(await readFile(path.join(dir, 'site-settings.json'), 'utf8')) as {
        serviceAlert: { title: string };
      };
      expect(file.serviceAlert.title).toBe('Phone lines down');
      const seeded = await seedContentIfChanged(t.app.ctx, dir);
      expect(seeded !== 'unchanged' && seeded.conflicts).toEqual([]);
      expect((await item(editor, 'service-alert')).fileDiffers).toBeNull();
      // The exported files load as content files do (every schema and cross-check).
      await expect(loadContentFiles(dir)).resolves.toBeTruthy();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
