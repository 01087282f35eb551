/**
 * Every user-visible string of the product, verbatim. Server and client import these so a
 * message is written once; tests assert against the same constants AND against the literal
 * text, typed out in the test.
 */

import { ACCEPTED_FILE_TYPES_TEXT } from './file-types';

export const validation = {
  // Login
  emailRequired: 'Email is required',
  invalidEmailFormat: 'Invalid email format',
  passwordRequired: 'Password is required',
  passwordMin: 'Password must be at least 8 characters long',
  // Registration
  fieldRequired: 'This field is required',
  invalidEmailAddress: 'Invalid email address',
  phoneMax: 'Phone number cannot exceed 20 characters',
  phoneFormatRegister: 'Phone number must start with + and may include spaces, dashes, and parentheses',
  passwordsDoNotMatch: 'Passwords do not match',
  // Forgot password
  emailAddressRequired: 'Email address is required',
  // Create / update transaction
  typeRequired: 'Type is required',
  roleRequired: 'Role is required',
  streetAddressRequired: 'Street Address is required',
  cityRequired: 'City is required',
  stateRequired: 'State is required',
  zipRequired: 'Zip Code is required',
  // Libraries
  nameRequired: 'Name is required',
  fileUploadRequired: 'File upload is required',
  linkRequired: 'Link is required',
  // Profile
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  companyRequired: 'Company is required',
  phoneRequired: 'Phone number is required',
  phoneFormatProfile: 'Invalid phone number format',
  // Add user
  firstNameMin: 'First name must be at least 2 characters',
  phoneFormatAddUser: 'Invalid phone number format (e.g., 123-456-7890)',
  companyNameRequired: 'company name is required',
  // Comments
  commentRequired: 'Please enter a comment before posting.',
  // Templates
  roleHint: 'If empty then add "-" to continue',
  documentNameRequired: 'Document name is required',
} as const;

export const toasts = {
  transactionCreated: 'Transaction created successfully!',
  formAdded: 'Form added successfully',
  formUpdated: 'Form updated successfully',
  tutorialAdded: 'Tutorial added successfully',
  formDeleted: 'Form deleted successfully',
  tutorialDeleted: 'Tutorial deleted successfully',
  transactionDeleted: 'Transaction deleted successfully',
  templateDeleted: 'Template deleted successfully',
  fileUploaded: 'File uploaded successfully!',
  uploadFailed: 'Failed to upload file',
  fileUrlUpdateFailed: 'Failed to update file URL',
  transactionUpdated: 'Transaction updated successfully!',
  commentAdded: 'Comment added successfully!',
  reviewSaved: 'Form Accepted/Rejected successfully!',
  updateFailed: 'Failed to update. Please try again.',
  documentAdded: 'Document added successfully',
  documentUpdated: 'Document updated successfully',
  somethingWentWrong: 'Something went wrong',
} as const;

export const alerts = {
  tokenExpired: 'Token expired. Logging out...',
  pleaseUploadFile: 'Please upload a file',
  tutorialSubmitError: 'Error submitting tutorial',
  transactionUpdateFailed: 'Failed to update transaction. Please try again.',
  addUserFailed: 'Failed to add user. Please try again.',
} as const;

export const authMessages = {
  invalidCredentials: 'Invalid email or password',
  emailNotVerified: 'Please verify your email address before signing in.',
  awaitingApproval: 'Your account is awaiting administrator approval.',
  emailNotFound: "We didn't find your email",
  verifying: 'Verifying your email...',
  verified: 'Your email has been verified. An administrator will review your account.',
  linkInvalid: 'This link is invalid or has expired.',
  backToLogin: 'Back to login',
  setNewPasswordHeading: 'Set a new password',
  setPasswordButton: 'Set password',
  passwordReset: 'Your password has been reset.',
} as const;

export const ui = {
  loading: 'Loading...',
  notFound: '404 page not found. We are sorry but the page you are looking for does not exist.',
  noNotifications: 'No new notifications',
  welcomeFallbackName: 'User',
  seeMore: 'See more',
} as const;

/** Answers of the API itself: our own wording, where the product's screens fix none. */
export const apiMessages = {
  notSignedIn: 'You must be signed in',
  sessionInvalid: 'Your session has expired. Please sign in again.',
  forbidden: 'You do not have permission to do this',
  /** An admin whose session proved no second factor, while the owner requires one. */
  twoFactorSetupRequired: 'Set up two-factor sign-in first',
  notFound: 'Not found',
  conflict: 'A record with this value already exists',
  invalidInput: 'Invalid input',
  /** U+0000 or a lone UTF-16 surrogate: PostgreSQL cannot store either. */
  unstorableText: 'Text contains a character that cannot be stored',
  payloadTooLarge: 'Request is too large',
  headersTooLarge: 'The request line and headers are too large',
  requestTimeout: 'The request did not arrive in time',
  malformedRequest: 'The request is not valid HTTP',
  unsupportedMediaType: 'Unsupported media type',
  tooManyRequests: 'Too many requests. Please try again later.',
  serviceUnavailable: 'Service temporarily unavailable. Please try again shortly.',
  /** /readyz while the instance drains before stopping (SHUTDOWN_DRAIN_MS). */
  shuttingDown: 'Shutting down',
  /** S3 (or a compatible service) did not answer or refused the portal's credentials. */
  storageUnavailable: 'File storage is unavailable. Please try again shortly.',
  internal: 'Internal server error',
  /** /metrics without the METRICS_TOKEN bearer token. */
  metricsTokenRequired: 'A valid metrics token is required',
  // Accounts
  registered: 'Registration successful. Please check your email to verify your account.',
  emailTaken: 'An account with this email already exists',
  verificationResent: 'If this email awaits verification, a new link is on its way.',
  resetSent: 'We sent a link to reset your password. Please check your email.',
  mailFailed: 'We could not send the email. Please try again shortly.',
  ownerCannotBeDeactivated: 'The owner account cannot be deactivated',
  cannotDeactivateSelf: 'You cannot deactivate your own account',
  // Transactions and files
  noTemplate: 'There is no checklist for this type and role',
  fileNotOfTransaction: 'This file was not uploaded to this transaction',
  fileRequired: 'Choose a file to upload',
  /** A search cut off by SEARCH_TIMEOUT_MS (a pathological term over a million rows). */
  searchTooSlow: 'This search took too long. Try a longer or more specific term.',
  /** Each CSV export holds a database connection until its last row is sent, so few run at once. */
  exportsBusy: 'Too many exports are running. Try again in a minute.',
  uploadMalformed: 'The upload was cut short or is not well-formed multipart data',
  fileTooLarge: 'The file is too large',
  /** An upload with a part besides its one file (another field, a second file). */
  uploadOneFileOnly: 'An upload takes one file, in the field "file", and nothing else',
  fileTypeRefused: `Only ${ACCEPTED_FILE_TYPES_TEXT} files are accepted`,
  linkExpired: 'This link has expired. Open the document again from its page.',
  accountApproved: 'Your account has been approved. Welcome aboard!',
  fileNotUploaded: 'Upload the file first, then save the form',
  ownerOnlyCreatesAdmins: 'Only the owner can create admin accounts',
  wrongCurrentPassword: 'The current password is not correct',
  passwordChanged: 'Password changed. Other sessions were signed out.',
  notificationsRead: 'All notifications marked as read',
} as const;

/** The compliance workflow. The ones docs/API.md quotes are part of the API: change them there too. */
export const complianceMessages = {
  waiverReasonRequired: 'Reason is required',
  rejectionNeedsReason: 'Give a reason for the rejection',
  noFileToReview: 'There is no file to review',
  transactionClosed: 'This transaction is closed',
  notCompliant: (missing: number) =>
    `This transaction is not compliant yet: ${missing} required documents are not accepted`,
  alreadyClosed: 'This transaction is already closed',
  notClosed: 'This transaction is not closed',
  reasonsOnlyWithRejection: 'Rejection reasons go with a rejection only',
  unknownReason: (code: string) => `There is no active rejection reason "${code}"`,
  reasonLabelRequired: 'Label is required',
  reasonLabelTaken: 'A rejection reason with this label already exists',
  alreadyDecided: (status: 'accepted' | 'rejected') => `This document is already ${status}`,
  staleVersion: (current: number) => `A newer file (version ${current}) was attached since: review that one`,
  notAwaitingReview: (label: string, place: string) => `"${label}" (${place}) is no longer awaiting review`,
  waiverOnOptional: 'This document is optional: it needs no waiver',
  waiverOnAccepted: 'This document is already accepted: it needs no waiver',
  waiverAlreadyRequested: 'A waiver is already requested for this document',
  waiverAlreadyApproved: 'This document is already waived',
  noWaiverRequested: 'No waiver is requested for this document',
  duplicateItems: 'Each document may appear once in a bulk review',
  documentInBothLists: (name: string) => `"${name}" cannot be both required and optional`,
  conditionalDocumentTwice: (name: string) =>
    `"${name}" is already on this template: a conditional document is on no other list`,
  closedFacts: 'This transaction is closed: reopen it to change its facts',
} as const;

/** Document intake. The ones docs/API.md quotes are part of the API: change them there too. */
export const intakeMessages = {
  /** The duplicate pre-check: the same bytes are another item's current file. */
  duplicate: (label: string) => `The same file is already attached to "${label}"`,
  encryptedPdf: 'This PDF is password-protected: upload an unlocked copy',
  /** A PDF built to exhaust whoever reads it (a stream that inflates without end, say). */
  hostilePdf: 'This PDF cannot be read safely: export or scan it again and upload the new copy',
  imagesRequired: 'Add at least one photo',
  tooManyImages: (max: number) => `A document takes at most ${max} photos`,
  imageUnreadable: (index: number) => `Photo ${index} could not be read: send JPEG, PNG or WebP photos`,
  imageTooLarge: (index: number) => `Photo ${index} is too large`,
  imageTypeRefused: (index: number) => `Photo ${index} is not a JPEG, PNG or WebP image`,
  photosNameTooLong: (max: number) => `The name of the photos' PDF may be at most ${max} characters`,
  splitNeedsPdf: 'Only a readable PDF can be split into documents',
  splitPageTwice: (page: number) => `Page ${page} is in two parts`,
  splitItemTwice: (label: string) => `"${label}" is given two parts: give each document one`,
  splitUnknownItem: 'This document is not on the checklist of this transaction',
} as const;

/** Key dates, reminders and the calendar. */
export const keyDateMessages = {
  kindInvalid:
    'Kind must be one of contract-acceptance, inspection, appraisal, financing, closing, listing-expiration, possession, custom',
  dateInvalid: 'Date must be a real day written YYYY-MM-DD',
  customLabelRequired: 'A custom date needs a label',
  tooMany: (max: number) => `A transaction has at most ${max} key dates`,
  duplicate: (label: string) => `"${label}" appears twice`,
  rangeReversed: '"to" must not be before "from"',
  rangeTooLong: (days: number) => `The range may span at most ${days} days`,
  saved: 'Key dates saved',
  feedCreated: 'Calendar link created. The previous link no longer works.',
} as const;

/** Notification preferences and the mail they govern. */
export const notificationSettingsMessages = {
  deliveryInvalid: 'Choose in-app, email or digest',
  timezoneInvalid: 'Timezone must be an IANA zone such as America/New_York',
  reminderDayInvalid: (max: number) => `Reminder days must be whole numbers from 1 to ${max}`,
  tooManyReminderDays: (max: number) => `At most ${max} reminder days`,
  eventNotYours: (event: string) => `"${event}" is not an event this account receives`,
  saved: 'Notification settings saved',
  unsubscribeInvalid: 'This unsubscribe link is not valid',
  unsubscribed: (label: string) => `You will no longer get e-mails for "${label}". It stays in the portal.`,
} as const;

/** API keys and Idempotency-Key. The quoted ones are verbatim. */
export const integrationMessages = {
  keyNameRequired: 'Name is required',
  scopesRequired: 'Choose at least one scope',
  scopeInvalid:
    'Scope must be one of transactions:read, transactions:write, reviews:write, users:read, users:write, libraries:write, webhooks:manage',
  expiryInPast: 'The expiry date must be in the future',
  noActiveAgent: 'No active agent with this id',
  lacksScope: (scope: string) => `This API key lacks the scope ${scope}`,
  /** A path meant for a person (their password, their notifications, the keys themselves). */
  notForApiKeys: 'API keys cannot call this path: sign in as a person',
  keyInvalid: 'This API key is not valid',
  keyRevoked: 'This API key has been revoked',
  keyExpired: 'This API key has expired',
  /** The admin who made the key was deactivated or demoted: the key dies with their rights. */
  keyCreatorInactive: 'The admin who created this API key can no longer use it',
  /** /trpc and the live stream are the portal's own transport; integrators use /api. */
  keyOnlyOnApi: 'API keys work on the /api paths only',
  keyRevokedToast: 'API key revoked',
  idempotencyKeyInvalid: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
  idempotencyMismatch: 'This Idempotency-Key was used with a different request',
  idempotencyInProgress: 'A request with this Idempotency-Key is still running. Try again in a moment.',
} as const;

/** Offices, office admins and transaction coordinators. */
export const officeMessages = {
  nameTaken: 'An office with this name already exists',
  stillHasUsers: 'This office still has users',
  deleted: 'Office deleted',
  nameRequired: 'Office name is required',
  onlyActiveAgentsCoordinated: 'Only active agents can be coordinated',
  /** An office admin keeps its users in its office and cannot make brokerage-wide admins. */
  officeAdminStaysInOffice: 'Office admins manage users of their own office only',
  created: 'Office created',
  updated: 'Office updated',
  notFound: 'Office not found',
  onlyAgentsCoordinate: 'Only agents can coordinate for other agents',
} as const;
