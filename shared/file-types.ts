/**
 * The file types a brokerage's documents come in, in one place: the server
 * accepts an upload when its bytes are one of these (server/storage/file-types.ts), the upload
 * routes document them, and the client's file pickers offer only these.
 */
export const ACCEPTED_FILE_TYPES = [
  { ext: 'pdf', mime: 'application/pdf', label: 'PDF' },
  { ext: 'png', mime: 'image/png', label: 'PNG' },
  { ext: 'jpg', mime: 'image/jpeg', label: 'JPEG' },
  { ext: 'gif', mime: 'image/gif', label: 'GIF' },
  { ext: 'webp', mime: 'image/webp', label: 'WebP' },
  {
    ext: 'docx',
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    label: 'DOCX',
  },
  {
    ext: 'xlsx',
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    label: 'XLSX',
  },
] as const;

export type AcceptedFileType = (typeof ACCEPTED_FILE_TYPES)[number];

/** "PDF, PNG, JPEG, GIF, WebP, DOCX and XLSX": for people (messages, API docs). */
export const ACCEPTED_FILE_TYPES_TEXT = `${ACCEPTED_FILE_TYPES.slice(0, -1)
  .map((type) => type.label)
  .join(', ')} and ${ACCEPTED_FILE_TYPES.at(-1)?.label}`;

/**
 * The `accept` attribute of a file picker. Browsers match a file by its type or its name, and
 * some report no type for office files, so both are listed (.jpeg too: the same type as .jpg).
 */
export const FILE_PICKER_ACCEPT = [
  ...ACCEPTED_FILE_TYPES.map((type) => type.mime),
  ...ACCEPTED_FILE_TYPES.map((type) => `.${type.ext}`),
  '.jpeg',
].join(',');
