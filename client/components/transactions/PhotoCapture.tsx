import {
  ActionIcon,
  Alert,
  Button,
  FileButton,
  Group,
  Image,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowLeft, IconArrowRight, IconCamera, IconCameraPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { intakeMessages, toasts } from '../../../shared/messages';
import { MAX_IMAGES_PER_UPLOAD } from '../../../shared/schemas/intake';
import type { UploadAnswer } from '../../../shared/schemas/transactions';
import { serverMessageOf } from '../../api/errors';
import { transactionImagesPath, uploadFile } from '../../api/upload';
import { PHONE_QUERY } from '../../breakpoints';
import { UploadProgress } from '../UploadProgress';
import { today } from './key-dates';

/** The images the server makes a PDF of. */
const PHOTO_ACCEPT = 'image/jpeg,image/png,image/webp';

type Photo = { id: number; file: File; url: string };

type PhotoCaptureProps = {
  transactionId: string;
  /** The checklist item the photos are of. */
  label: string;
  disabled: boolean;
  /** The photos' PDF is stored: attach it to the item. */
  onUploaded: (answer: UploadAnswer) => void;
};

/** The photos' PDF is named by its item and the day it was taken, in the agent's zone. */
export function photosPdfName(label: string, now: Date = new Date()): string {
  return `${label} ${today(now)}`.slice(-120);
}

/**
 * A paper document photographed page by page: on a phone the button opens the camera; the photos
 * gather in a dialog where they are put in order, then sent as one PDF (a page per photo).
 */
export function PhotoCapture({ transactionId, label, disabled, onUploaded }: PhotoCaptureProps) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const [photos, setPhotos] = useState<Photo[]>([]);
  const [opened, setOpened] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const nextId = useRef(0);
  const resetRef = useRef<() => void>(null);
  const resetAnotherRef = useRef<() => void>(null);
  // Every object URL still shown, so leaving the page frees them too.
  const shown = useRef<Photo[]>([]);
  shown.current = photos;
  useEffect(
    () => () => {
      for (const photo of shown.current) URL.revokeObjectURL(photo.url);
    },
    [],
  );

  const add = (files: File[]) => {
    resetRef.current?.();
    resetAnotherRef.current?.();
    if (files.length === 0) return;
    const room = MAX_IMAGES_PER_UPLOAD - photos.length;
    setError(files.length > room ? intakeMessages.tooManyImages(MAX_IMAGES_PER_UPLOAD) : null);
    const added = files.slice(0, Math.max(0, room)).map((file) => ({
      id: nextId.current++,
      file,
      url: URL.createObjectURL(file),
    }));
    setPhotos((current) => [...current, ...added]);
    setOpened(true);
  };

  const move = (index: number, by: -1 | 1) =>
    setPhotos((current) => {
      const moved = [...current];
      const [photo] = moved.splice(index, 1);
      if (photo) moved.splice(index + by, 0, photo);
      return moved;
    });

  const remove = (photo: Photo) => {
    URL.revokeObjectURL(photo.url);
    setPhotos((current) => current.filter((kept) => kept.id !== photo.id));
  };

  const close = () => {
    for (const photo of photos) URL.revokeObjectURL(photo.url);
    setPhotos([]);
    setError(null);
    setOpened(false);
  };

  const uploading = progress !== null;
  const upload = async () => {
    setError(null);
    setProgress(0);
    let answer: UploadAnswer;
    try {
      answer = await uploadFile(
        transactionImagesPath(transactionId, photosPdfName(label)),
        photos.map((photo) => photo.file),
        setProgress,
      );
    } catch (failure) {
      // The photos stay, so the agent can try again without taking them anew.
      setError(`${toasts.uploadFailed}: ${serverMessageOf(failure)}`);
      return;
    } finally {
      setProgress(null);
    }
    close();
    onUploaded(answer);
  };

  return (
    <>
      <FileButton
        multiple
        accept={PHOTO_ACCEPT}
        capture="environment"
        onChange={add}
        resetRef={resetRef}
        disabled={disabled}
      >
        {(props) => (
          <Button
            {...props}
            size="xs"
            variant="light"
            disabled={disabled}
            leftSection={<IconCamera size={16} aria-hidden="true" />}
          >
            {phone ? 'Take photos' : 'Photos to PDF'}
          </Button>
        )}
      </FileButton>
      <Modal
        opened={opened}
        onClose={() => {
          if (!uploading) close();
        }}
        title={`Photos of ${label}`}
        fullScreen={phone}
        size="lg"
      >
        <Stack gap="sm">
          <Text size="sm">The photos become one PDF, a page per photo, in this order.</Text>
          {photos.length === 0 ? (
            <Text size="sm" c="dimmed">
              No photos yet.
            </Text>
          ) : (
            <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="xs" component="ol" p={0} m={0}>
              {photos.map((photo, index) => (
                <Paper key={photo.id} component="li" withBorder p={4} style={{ listStyle: 'none' }}>
                  <Stack gap={4}>
                    <Image src={photo.url} alt={`Photo ${index + 1}`} h={140} fit="contain" />
                    <Group gap={4} justify="center" wrap="nowrap">
                      <ActionIcon
                        size="lg"
                        variant="default"
                        aria-label={`Move photo ${index + 1} earlier`}
                        disabled={index === 0 || uploading}
                        onClick={() => move(index, -1)}
                      >
                        <IconArrowLeft size={18} aria-hidden="true" />
                      </ActionIcon>
                      <ActionIcon
                        size="lg"
                        variant="default"
                        aria-label={`Move photo ${index + 1} later`}
                        disabled={index === photos.length - 1 || uploading}
                        onClick={() => move(index, 1)}
                      >
                        <IconArrowRight size={18} aria-hidden="true" />
                      </ActionIcon>
                      <ActionIcon
                        size="lg"
                        variant="default"
                        color="red"
                        aria-label={`Remove photo ${index + 1}`}
                        disabled={uploading}
                        onClick={() => remove(photo)}
                      >
                        <IconTrash size={18} aria-hidden="true" />
                      </ActionIcon>
                    </Group>
                  </Stack>
                </Paper>
              ))}
            </SimpleGrid>
          )}
          <FileButton
            multiple
            accept={PHOTO_ACCEPT}
            capture="environment"
            onChange={add}
            resetRef={resetAnotherRef}
            disabled={uploading || photos.length >= MAX_IMAGES_PER_UPLOAD}
          >
            {(props) => (
              <Button
                {...props}
                variant="default"
                disabled={uploading || photos.length >= MAX_IMAGES_PER_UPLOAD}
                leftSection={<IconCameraPlus size={16} aria-hidden="true" />}
              >
                {photos.length === 0 ? 'Take a photo' : 'Take another photo'}
              </Button>
            )}
          </FileButton>
          {uploading && <UploadProgress percent={progress} />}
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} disabled={uploading}>
              Cancel
            </Button>
            <Button onClick={() => void upload()} disabled={photos.length === 0} loading={uploading}>
              Upload as one PDF
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
