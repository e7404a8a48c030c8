// The app server's Prometheus metrics (prom-client), served at /metrics to a scraper that has METRICS_TOKEN
// (src/server/http/metrics-endpoint.ts), never publicly. Counted where things happen: requests by the REST pipeline,
// credits and the response cache by the same; the database pool and the webhook deliveries are read when scraped
// (deliveries run in the background processes, so they are read from the database every process shares).
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

export const apiRequests = new Counter({
  name: 'aso_api_requests_total',
  help: 'Public API requests answered, by method, route template and status (402 and 429 included).',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

export const apiRequestDuration = new Histogram({
  name: 'aso_api_request_duration_seconds',
  help: 'Time to answer a public API request, by method, route template and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

export const creditsCharged = new Counter({
  name: 'aso_credits_charged_total',
  help: 'Credits charged for public API calls, by the plan of the account charged.',
  labelNames: ['plan'] as const,
  registers: [metricsRegistry],
});

export const responseCacheLookups = new Counter({
  name: 'aso_response_cache_lookups_total',
  help: 'Cacheable public API reads, by whether the answer was replayed from the response cache (hit) or computed (miss).',
  labelNames: ['result'] as const,
  registers: [metricsRegistry],
});
