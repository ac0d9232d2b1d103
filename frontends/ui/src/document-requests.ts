/* What the request screens (the requests remote, the home panels) share about document requests. */

/** "3 to review": a request's items uploaded and waiting for a decision (progress.uploaded). */
export const toReviewText = (uploaded: number): string => `${uploaded} to review`;
