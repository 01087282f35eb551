import { Alert, Center, Container, Divider, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { useParams } from 'wouter';
import type { SigningView } from '../../shared/schemas/esign';
import { esignPageMessages } from '../../shared/signing-page-messages';
import { httpStatusOf, serverMessageOf } from '../api/errors';
import { DeclineForm } from '../components/esign/DeclineForm';
import { FieldOverlay, fieldLabels } from '../components/esign/FieldOverlay';
import { SignForm } from '../components/esign/SignForm';
import { loadSigning } from '../components/esign/sign-api';
import { Logo } from '../components/Logo';
import { decodeParam } from '../paths';

// pdf.js and the viewer arrive with the document, not with the page's first bytes.
const PdfViewer = lazy(() => import('../components/review/PdfViewer'));

type Outcome = 'signed' | 'declined' | null;

/** The frame of every state: the logo and one titled card, no application shell. */
function SigningFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container component="main" size="sm" px="sm" py="lg">
      <Stack gap="lg">
        <Logo />
        <Paper withBorder shadow="sm" p={{ base: 'sm', sm: 'xl' }}>
          <Stack gap="md">
            <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
              {title}
            </Title>
            {children}
          </Stack>
        </Paper>
      </Stack>
    </Container>
  );
}

function failureText(error: unknown): string {
  if (httpStatusOf(error) === 404) return esignPageMessages.invalidLink;
  return serverMessageOf(error);
}

/**
 * A signer's mailed link, /sign/:token: no account, the token its only credential (kept in
 * memory, sent only to the signing calls). Shows who asks and why, the document with this
 * signer's fields marked, the fields to fill, the consent, and a way to decline.
 */
export function Sign() {
  const { token: rawToken } = useParams<{ token: string }>();
  const token = decodeParam(rawToken);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const view = useQuery({
    queryKey: ['signing', token],
    queryFn: () => loadSigning(token),
    retry: false,
    // Each read marks the signer viewed and counts against the rate limit: once is enough.
    refetchOnWindowFocus: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

  if (outcome === 'signed')
    return (
      <SigningFrame title="Signed, thank you">
        <Text role="status">{esignPageMessages.signed}</Text>
      </SigningFrame>
    );
  if (outcome === 'declined')
    return (
      <SigningFrame title="Declined">
        <Text role="status">{esignPageMessages.declined}</Text>
      </SigningFrame>
    );
  if (view.isError)
    return (
      <SigningFrame title="Sign a document">
        <Alert color="red" role="alert">
          {failureText(view.error)}
        </Alert>
      </SigningFrame>
    );
  if (!view.data)
    return (
      <SigningFrame title="Sign a document">
        <Center py="lg">
          <Loader aria-label="Loading the document" />
        </Center>
      </SigningFrame>
    );
  return <SigningRequest token={token} view={view.data} onOutcome={setOutcome} />;
}

type SigningRequestProps = { token: string; view: SigningView; onOutcome: (outcome: Outcome) => void };

function SigningRequest({ token, view, onOutcome }: SigningRequestProps) {
  const labels = useMemo(() => fieldLabels(view.fields), [view.fields]);
  const [filled, setFilled] = useState<ReadonlySet<string>>(new Set());
  const { request, signer } = view;

  if (view.status === 'signed' || view.status === 'declined' || view.status === 'closed')
    return (
      <SigningFrame title={request.subject}>
        <Text role="status">
          {view.status === 'signed'
            ? esignPageMessages.alreadySigned
            : view.status === 'declined'
              ? esignPageMessages.declined
              : esignPageMessages.noLongerOpen}
        </Text>
      </SigningFrame>
    );

  return (
    <SigningFrame title={request.subject}>
      <Stack gap={4}>
        <Text size="sm">
          From <b>{request.from}</b>, for <b>{signer.name}</b> to sign
        </Text>
        {request.message && (
          <Text
            size="sm"
            style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
            data-testid="signing-message"
          >
            {request.message}
          </Text>
        )}
      </Stack>
      <Suspense fallback={<Loader size="sm" aria-label="Loading the document" />}>
        <PdfViewer
          url={view.documentUrl}
          label={request.subject}
          overlay={({ pageNumber, scale }) => (
            <FieldOverlay
              fields={view.fields}
              labels={labels}
              pageNumber={pageNumber}
              scale={scale}
              filled={filled}
            />
          )}
        />
      </Suspense>
      <Text size="sm" c="dimmed">
        Your fields are marked on the pages:{' '}
        {view.fields.map((field) => `${labels.get(field._id)} on page ${field.page}`).join(', ')}.
      </Text>
      <Divider />
      <SignForm
        token={token}
        signerName={signer.name}
        fields={view.fields}
        labels={labels}
        onValuesChange={(values) =>
          setFilled(
            new Set(
              view.fields
                .filter((field) => field.kind === 'date' || Boolean(values[field._id]))
                .map((field) => field._id),
            ),
          )
        }
        onSigned={() => onOutcome('signed')}
      />
      <DeclineForm token={token} onDeclined={() => onOutcome('declined')} />
    </SigningFrame>
  );
}
