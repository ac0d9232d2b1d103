/*
 * The document requests' realtime event name, apart from the schemas in
 * requests.contracts.ts: every signed-in page listens for it, without the validation library.
 */

/**
 * Pushed over the realtime endpoint to the staff who reach the request and to the client's
 * users after every change (its payload: DocumentRequestPush in requests.contracts.ts).
 */
export const DOCUMENT_REQUEST_PUSH = 'document-request.changed';
