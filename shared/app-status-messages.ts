/** The installed app's bar: no signal, or a new version waiting (client/layout/AppStatusBar.tsx). */
export const appStatusMessages = {
  offline: 'You are offline: changes will be sent when you are back',
  updateReady: 'A new version of the portal is ready.',
  reloadToUpdate: 'Reload',
} as const;
