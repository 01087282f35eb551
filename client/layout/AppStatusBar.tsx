import { appStatusMessages } from '../../shared/app-status-messages';
import { reloadToUpdate } from '../app-updates';
import classes from './AppStatus.module.css';

/**
 * The bar itself, in a chunk of its own: most visits never show it, and the service worker keeps
 * it with every other file, so it is there with no signal.
 */
export default function AppStatusBar({ online, updateReady }: { online: boolean; updateReady: boolean }) {
  return (
    <>
      <div className={classes.spacer} aria-hidden="true" />
      {/* A landmark of its own, so the message is not content outside every landmark. */}
      <aside className={classes.bar} aria-label="The app's status">
        <div className={classes.message} role="status">
          {online ? null : <span>{appStatusMessages.offline}</span>}
          {updateReady ? (
            <>
              <span>{appStatusMessages.updateReady}</span>
              <button type="button" className={classes.reload} onClick={reloadToUpdate}>
                {appStatusMessages.reloadToUpdate}
              </button>
            </>
          ) : null}
        </div>
      </aside>
    </>
  );
}
