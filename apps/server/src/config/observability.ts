import { z } from 'zod';
import { optionalUrl } from './common';

/* What the instance tells about itself besides its log: Prometheus metrics and OpenTelemetry traces. */

export const observabilityVariables = z.object({
  /**
   * The port of the metrics listener (Prometheus text at /metrics), apart from the public one; unset: no
   * listener (decision 022). 0 takes any free port (it is logged).
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** The address the metrics listener binds to: loopback unless the scraper is elsewhere. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * Also serve the metrics at this path of the public listener (e.g. /metrics); unset by default, since
   * anyone who can reach the portal could then read them: only behind a proxy that refuses the path.
   */
  METRICS_PUBLIC_PATH: z
    .string()
    .regex(/^\/[A-Za-z0-9._~/-]*$/, 'a path starting with /, such as /metrics')
    .optional(),
  /**
   * OpenTelemetry traces: the OTLP/HTTP collector's base URL (e.g. http://127.0.0.1:4318); unset, no
   * tracing. The other OTEL_* variables (headers, OTEL_SERVICE_NAME) are read by the exporter itself.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
});

export interface ObservabilityConfig {
  /** Where the Prometheus metrics are served: a listener of their own, a public path, both or neither. */
  metrics: { port: number | undefined; host: string; publicPath: string | undefined };
  /** OpenTelemetry traces: on when the OTLP endpoint is set. */
  tracing: { otlpEndpoint: string | undefined };
}

export function observabilityConfig(e: z.infer<typeof observabilityVariables>): ObservabilityConfig {
  return {
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, publicPath: e.METRICS_PUBLIC_PATH },
    tracing: { otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT },
  };
}
