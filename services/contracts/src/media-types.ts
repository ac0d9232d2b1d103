/**
 * File extension → media type (spec 000 §3, spec 001 §4): the one map the screens (which
 * open or download by it) and the files service (which stores, serves and checks uploads
 * by it) share. Anything else is generic binary.
 */

export const GENERIC_MEDIA_TYPE = 'application/octet-stream';

export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  bmp: 'image/bmp',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  txt: 'text/plain',
  rtf: 'application/rtf',
  csv: 'text/csv',
  xml: 'application/xml',
  json: 'application/json',
  zip: 'application/zip',
  rar: 'application/vnd.rar',
  '7z': 'application/x-7z-compressed',
  tar: 'application/x-tar',
  gz: 'application/gzip',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  mp4: 'video/mp4',
  avi: 'video/x-msvideo',
  mov: 'video/quicktime',
  wmv: 'video/x-ms-wmv',
  mkv: 'video/x-matroska',
};

/** The lower-cased extension of a file name ('' when it has none: 'pdf' alone is a name, not an extension). */
export function fileNameExtension(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot <= 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/** The media type of a stored file, by its name's extension only (never what the sender claims). */
export function mediaTypeOfFileName(fileName: string): string {
  const extension = fileNameExtension(fileName);
  return extension && Object.hasOwn(MEDIA_TYPES, extension) ? MEDIA_TYPES[extension]! : GENERIC_MEDIA_TYPE;
}

/**
 * What a document request's item takes (the link page, the portal's item upload): images,
 * PDF, Office documents, CSV, text and ZIP. The files service checks each file's extension
 * against this list and its first bytes against the extension; the pages offer the same list.
 * (SVG is left out: an image that can carry script has no place in a client's upload.)
 */
export const REQUEST_UPLOAD_EXTENSIONS: readonly string[] = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp', 'pdf', 'doc', 'docx', 'xls', 'xlsx', 'csv', 'txt', 'zip'];

/** The `accept` attribute of a document request's file inputs. */
export const REQUEST_UPLOAD_ACCEPT = REQUEST_UPLOAD_EXTENSIONS.map((extension) => `.${extension}`).join(',');

export const REQUEST_UPLOAD_REFUSED = (fileName: string) =>
  `The file "${fileName}" is not a type this request takes: send images (JPEG, PNG, GIF, BMP, WebP), PDF, Word or Excel documents, CSV, text or ZIP files.`;
