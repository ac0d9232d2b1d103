/** Upload answers (spec 001 §5 and §8 texts come from UPLOAD_MESSAGES in the contracts). */
export const megabytes = (bytes: number): string => {
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? String(Math.floor(mb * 100) / 100) : String(Number(mb.toPrecision(2)));
};

export const UPLOAD_ERRORS = {
  tooLarge: (maxBytes: number) => `File is too large. The limit is ${megabytes(maxBytes)} MB.`,
  tooManyFiles: (max: number) => `Too many files. Upload at most ${max} files at a time.`,
  tooManyFields: 'Too many form fields in the upload.',
  fieldTooLong: (name: string) => `The field "${name}" is too long.`,
  duplicateField: (name: string) => `The field "${name}" was sent more than once.`,
  unexpectedFileField: (name: string) => `Unexpected file field "${name}". Send each file as "file".`,
  notMultipart: 'Send the upload as multipart/form-data.',
  malformed: 'The upload could not be read: the multipart body is malformed or incomplete.',
  interrupted: 'The upload was interrupted before it finished.',
  fieldsAfterFiles: 'Send the form fields before the files',
  empty: (name: string) => `The file "${name}" is empty.`,
  disguised: (name: string, extension: string) => `The file "${name}" is not a real .${extension} file: its content does not match its extension.`,
} as const;
