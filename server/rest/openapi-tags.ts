/**
 * The document's tags, declared at the top level with what each groups. Every operation's tag
 * (a procedure's `rest.tag`, a route's `tags`) must be one of these: the document test fails
 * naming an undeclared one.
 */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  auth: 'Registration, sign-in, sessions, password resets, two-factor sign-in and single sign-on',
  passkeys: "Passkeys (WebAuthn): registering them and signing in with them; a person's own only",
  settings: 'A user’s own profile, password, notification preferences and e-mail links',
  users: 'Accounts as admins manage them: listing, adding, activating, deactivating',
  transactions: "Agents' transactions: files, checklists, comments, waivers, facts",
  'admin transactions': 'Every transaction an admin reaches: searching, closing, reopening, history',
  uploads: 'Files sent to a checklist item or to the forms library (multipart)',
  compliance: 'The review queue: accepting and rejecting checklist items, rejection reasons',
  templates: 'Checklist templates and their rules',
  'key dates': "Transactions' key dates, the calendar and its iCalendar feed",
  notifications: "A user's notifications",
  exports: 'CSV exports of transactions, checklist items and commission',
  archives: 'Sealed archives of closed files, and legal holds',
  signatures: 'Electronic signature requests and the signing pages',
  commission: 'Commission plans, splits and commission disbursement authorizations (CDAs)',
  dashboard: "The broker's dashboard figures",
  offices: 'Offices and who administers them',
  'api keys': 'API keys for integrations (made by admins)',
  webhooks: 'Webhook endpoints, their deliveries, and the events the portal posts to them',
  audit: 'The audit trail: its log and its hash-chain verification',
  admin: 'Brokerage-wide settings: security requirements, banners',
  'forms library': 'The library of blank forms',
  'tutorials library': 'The library of tutorials',
};

/** The top-level `tags`, in the order above, with the tags the operations use and no other. */
export function declaredTags(used: ReadonlySet<string>): Array<{ name: string; description: string }> {
  return Object.entries(TAG_DESCRIPTIONS)
    .filter(([name]) => used.has(name))
    .map(([name, description]) => ({ name, description }));
}
