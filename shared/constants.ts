/** Business constants, shared by the server and the client. */

export const PAGE_SIZE = 10;
/** Upper bound a client may ask for in one page; keeps a single answer small. */
export const MAX_PAGE_SIZE = 100;

export const PASSWORD_MIN_LENGTH = 8;
/** argon2 has no length limit, but hashing megabytes is a denial-of-service lever. */
export const PASSWORD_MAX_LENGTH = 256;
export const PHONE_MAX_LENGTH = 20;
export const ADD_USER_FIRST_NAME_MIN_LENGTH = 2;

export const TOAST_AUTO_CLOSE_MS = 5000;
export const TEMPLATE_PREVIEW_DOCUMENTS = 2;

/** A transaction type without a role stores this in `role`. */
export const NO_ROLE = '-';

export const ROLES = ['user', 'admin'] as const;
export const FORM_STATUSES = ['pending', 'accepted', 'rejected'] as const;

/** Browser storage keys, exactly as the product names them. */
export const STORAGE_KEYS = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  userId: 'user_id',
} as const;
