import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { identityModule } from '@ledgerline/identity/identity.module.ts';
import { directoryModule } from '@ledgerline/directory-service/directory.module.ts';
import { filesModule } from '@ledgerline/files-service/files.module.ts';
import { activityModule } from '@ledgerline/activity-service/activity.module.ts';
import { chatModule } from '@ledgerline/chat-service/chat.module.ts';
import { tasksModule } from '@ledgerline/tasks-service/tasks.module.ts';
import { complianceModule } from '@ledgerline/compliance-service/compliance.module.ts';
import { insightsModule } from '@ledgerline/insights-service/insights.module.ts';
import { messagingModule } from '@ledgerline/messaging-service/messaging.module.ts';
import { requestsModule } from '@ledgerline/requests-service/requests.module.ts';
import { signaturesModule } from '@ledgerline/signatures-service/signatures.module.ts';
import { billingModule } from '@ledgerline/billing-service/billing.module.ts';

/** Every service the process can run, in start order (identity first: it issues the tokens the others verify). */
export const SERVICE_MODULES: readonly ServiceModule[] = [identityModule, directoryModule, filesModule, activityModule, chatModule, tasksModule, complianceModule, insightsModule, messagingModule, requestsModule, signaturesModule, billingModule];

export const GATEWAY_TARGET = 'gateway';
export const ALL_TARGET = 'all';

export function listTargets(): string[] {
  return [ALL_TARGET, GATEWAY_TARGET, ...SERVICE_MODULES.map((m) => m.name)];
}

export class UnknownTargetError extends Error {}

export interface ResolvedTargets {
  gateway: boolean;
  services: ServiceModule[];
}

/** `all` (default), `gateway`, one service name, or a comma-separated list of them. */
export function resolveTargets(spec: string): ResolvedTargets {
  const names = spec.split(',').map((s) => s.trim()).filter(Boolean);
  const known = listTargets();
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length || names.length === 0) {
    throw new UnknownTargetError(`Unknown target "${unknown.join(', ') || spec}". Known targets: ${known.join(', ')}`);
  }
  if (names.includes(ALL_TARGET)) return { gateway: true, services: [...SERVICE_MODULES] };
  return { gateway: names.includes(GATEWAY_TARGET), services: SERVICE_MODULES.filter((m) => names.includes(m.name)) };
}
