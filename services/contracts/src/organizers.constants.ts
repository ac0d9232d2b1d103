/*
 * The organizers' realtime event name, apart from the schemas in organizers.contracts.ts:
 * the home and the organizer screens listen for it without the validation library.
 */

/**
 * Pushed over the realtime endpoint to the staff who reach the organizer and to the client's
 * users after every step (its payload: OrganizerPush in organizers.contracts.ts).
 */
export const ORGANIZER_PUSH = 'organizer.changed';
