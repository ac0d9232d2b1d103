/** The one extension → media type map lives in contracts (the files service checks uploads by it). */
export { GENERIC_MEDIA_TYPE, MEDIA_TYPES, mediaTypeFor, fileNameExtension, mediaTypeOfFileName } from '@ledgerline/contracts/media-types.ts';
