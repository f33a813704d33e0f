import { HOTP, Secret, TOTP } from 'otpauth';

/* RFC 6238 as every common authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Steps of clock drift accepted either way. */
const DRIFT_STEPS = 1;

/** A new 160-bit secret (RFC 4226's recommended length). */
export const newTotpSecret = (): Buffer => Buffer.from(new Secret({ size: 20 }).bytes);

/** The key as the customer types it into an app: base32. */
export const base32Of = (secret: Buffer): string => Secret.fromHex(secret.toString('hex')).base32;

/** The otpauth:// URI the QR code carries. */
export function otpauthUri(secret: Buffer, issuer: string, label: string): string {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromHex(secret.toString('hex')),
  }).toString();
}

/** The 30-second time step of an instant. */
const timeStep = (at: Date): number => TOTP.counter({ period: PERIOD_SECONDS, timestamp: at.getTime() });

/**
 * The time step whose code `code` is, within one step either side of `at`, and later than `lastUsedStep`
 * (a code once accepted, or one of an earlier step, is refused: no replay); null otherwise.
 */
export function matchTotp(
  secret: Buffer,
  code: string,
  at: Date,
  lastUsedStep: number | null,
): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = Secret.fromHex(secret.toString('hex'));
  const now = timeStep(at);
  for (let step = now - DRIFT_STEPS; step <= now + DRIFT_STEPS; step++) {
    if (lastUsedStep !== null && step <= lastUsedStep) continue;
    // HOTP.validate compares in constant time.
    if (
      HOTP.validate({
        token: code,
        secret: key,
        algorithm: 'SHA1',
        digits: DIGITS,
        counter: step,
        window: 0,
      }) === 0
    )
      return step;
  }
  return null;
}
