import { Image, Loader } from '@mantine/core';
import { useEffect, useState } from 'react';

/**
 * The otpauth URL as a QR code, drawn in the browser (the secret never leaves the page for an
 * image service). The qrcode library is fetched only when a setup shows it.
 */
export function TotpQrCode({ otpauthUrl }: { otpauthUrl: string }) {
  const [dataUrl, setDataUrl] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void import('qrcode')
      .then((qrcode) => qrcode.toDataURL(otpauthUrl, { margin: 1, width: 200 }))
      .then((url) => {
        if (current) setDataUrl(url);
      });
    return () => {
      current = false;
    };
  }, [otpauthUrl]);
  if (!dataUrl) return <Loader size="sm" aria-label="Drawing the QR code" />;
  return <Image src={dataUrl} w={200} h={200} alt="QR code to scan with your authenticator app" />;
}
