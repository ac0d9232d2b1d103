/**
 * The stages' realtime event name, apart from the schemas in stages.contracts.ts: the
 * dashboard's home imports no schema (building zod's schemas holds a phone's processor).
 *
 * Pushed over the realtime endpoint on every move of a tracker item between stages (issue 42)
 * to the staff who reach the item and the client's own users (StagePush).
 */
export const STAGE_PUSH = 'compliance-item.stage-changed';
