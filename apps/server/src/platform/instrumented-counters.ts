import type { CounterStore, RateDecision } from './counters/store';
import { limitName, type Metrics } from './metrics';
import { inSpan, SpanKind } from './tracing';

/**
 * The app's counter store with its refusals counted by limit name (portal_rate_limit_refusals_total),
 * and, on Redis, its failed commands counted (portal_redis_command_errors_total) and each command in a
 * span of its own when tracing is on. A refused peek() counts too: it is how a limit checked before the
 * work (failed sign-ins per address) refuses.
 */
export function instrumentCounterStore(store: CounterStore, metrics: Metrics): CounterStore {
  const refused = (key: string, decision: RateDecision): RateDecision => {
    if (!decision.allowed) metrics.rateLimitRefusals.inc({ limit: limitName(key) });
    return decision;
  };
  /** `work` on Redis, in a span; its failures count as Redis errors unless `notRedis` says otherwise. */
  const command = <T>(
    operation: string,
    key: string,
    work: () => Promise<T>,
    notRedis: () => boolean = () => false,
  ): Promise<T> => {
    if (store.kind !== 'redis') return work();
    return inSpan(
      `redis ${operation}`,
      SpanKind.CLIENT,
      { 'db.system.name': 'redis', 'db.operation.name': operation, 'portal.limit': limitName(key) },
      work,
    ).catch((error: unknown) => {
      if (!notRedis()) metrics.redisCommandErrors.inc();
      throw error;
    });
  };
  return {
    kind: store.kind,
    take: async (key, limit, windowMs) =>
      refused(key, await command('EVAL', key, () => store.take(key, limit, windowMs))),
    peek: async (key, limit, windowMs) =>
      refused(key, await command('EVAL', key, () => store.peek(key, limit, windowMs))),
    takeAll: (items, write) => {
      // On Redis the counts are taken first, then the caller's write uses the database: a failure of
      // the write is not Redis'.
      let writing = false;
      return command(
        'EVAL',
        items[0]?.key ?? '',
        () =>
          store.takeAll(items, (decisions, tx) => {
            writing = true;
            decisions.forEach((decision, i) => refused(items[i]?.key ?? '', decision));
            return write(decisions, tx);
          }),
        () => writing,
      );
    },
    reset: (key) => command('DEL', key, () => store.reset(key)),
    ping: () => command('PING', '', () => store.ping()),
    close: () => store.close(),
  };
}
