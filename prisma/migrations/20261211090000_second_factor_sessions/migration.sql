-- A session (a refresh token family) remembers how its sign-in proved a second factor, so every
-- access token it refreshes says so too; null when only a password (or one factor) was shown.
ALTER TABLE "refresh_tokens" ADD COLUMN "second_factor" TEXT;
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_second_factor_check"
  CHECK ("second_factor" IN ('totp', 'recovery', 'passkey', 'sso'));
