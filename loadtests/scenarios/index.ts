// Every scenario a load run drives. A service that lands adds its own: one file in this
// folder exporting a Scenario, and one line below.
import type { Scenario } from '../lib/scenario.ts';
import { chatScenario } from './chat.ts';
import { clientSearchScenario } from './client-search.ts';
import { complianceScenario } from './compliance.ts';
import { dashboardScenario } from './dashboard.ts';
import { fileListScenario, fileSearchScenario } from './files.ts';
import { messagingScenario } from './messaging.ts';
import { realtimeScenario } from './realtime.ts';
import { signInScenario } from './sign-in.ts';
import { tasksScenario } from './tasks.ts';
import { largeUploadScenario, smallUploadScenario } from './upload.ts';

export const SCENARIOS: readonly Scenario[] = [
  signInScenario,
  clientSearchScenario,
  fileListScenario,
  fileSearchScenario,
  smallUploadScenario,
  largeUploadScenario,
  dashboardScenario,
  tasksScenario,
  complianceScenario,
  chatScenario,
  realtimeScenario,
  messagingScenario,
];
