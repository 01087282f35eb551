import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { downloadFile } from '../api/download';
import { serverMessageOf } from '../api/errors';
import { notifyError } from '../notify';

type ExportButtonProps = {
  /** The CSV route with the list's current filters, e.g. /api/users.csv?query=smith */
  path: string;
  /** Saved under this name when the answer names none. */
  filename: string;
};

/** "Export CSV": every row the list shows with its filters, as a file. */
export function ExportButton({ path, filename }: ExportButtonProps) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadFile(path, filename);
    } catch (error) {
      notifyError('Could not export', serverMessageOf(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden />}
      loading={busy}
      onClick={download}
    >
      Export CSV
    </Button>
  );
}

/** `path?key=value...` for the filters that are set. */
export function exportPath(path: string, filters: Record<string, string | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
