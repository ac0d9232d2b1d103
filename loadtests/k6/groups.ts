import { P95_OVERRIDES } from './config.ts';

/**
 * The endpoint groups a run times, each with the p95 (ms) it is held to: a k6 group per
 * scenario, so `http_req_duration{group:::<name>}` carries its requests.
 */
const LIMITS: Record<string, number> = {
  'sign-in': 1500, // a password hash each
  clients: 300,
  'files-list': 300,
  'files-search': 500,
  'upload-small': 1500,
  'upload-50mb': 30_000,
  dashboard: 1000,
  tasks: 500,
  compliance: 500,
  chat: 3000,
  realtime: 500,
  messaging: 500,
};

/** Socket delivery: from the triggering call's answer to the socket.io push (a k6 Trend). */
export const WS_DELIVERY_METRIC = 'ws_delivery';
export const WS_DELIVERY_P95_MS = P95_OVERRIDES[WS_DELIVERY_METRIC] ?? 1000;
export const MAX_FAILED_RATE = 0.01;
export const MIN_CHECK_RATE = 0.99;

for (const name of Object.keys(P95_OVERRIDES)) {
  if (!(name in LIMITS) && name !== WS_DELIVERY_METRIC) throw new Error(`LOADTEST_P95_MS names no group "${name}": ${[...Object.keys(LIMITS), WS_DELIVERY_METRIC].join(', ')}`);
}

export const p95Limit = (group: string): number => P95_OVERRIDES[group] ?? LIMITS[group]!;

/** The tag k6 gives what runs inside group(name) at the top level. */
export const groupTag = (group: string): string => `::${group}`;
