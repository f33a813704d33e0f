/**
 * What the server log says about a request's URL: its path, without the query string (where tokens,
 * codes, OpenID state and PKCE values travel) and with every path segment that is a secret or looks
 * like one replaced by `[redacted]`.
 */

const REDACTED = '[redacted]';

/**
 * Path segments that carry a secret whatever they look like: the provider's interaction id
 * (`{issuer}/interaction/<uid>`) and the authorization resume id (`{issuer}/v1/authorize/<uid>`), which
 * with the browser's cookies continue a sign-in.
 */
const SECRET_AFTER = /(\/oauth2\/[^/]+\/(?:interaction|v1\/authorize))\/[^/]+/g;

/**
 * A segment that looks like a token or a random id: a JWT; 20 or more URL-safe characters (no dot, so
 * no file name) mixing capitals, small letters and digits (base64url secrets, generated ids); or 20 or
 * more hexadecimal digits, hyphens allowed (hex secrets, UUIDs). Words, slugs, customer and policy
 * numbers, dates and the SPA's hashed asset names are not.
 */
const JWT = /^eyJ[\w-]*\.[\w-]*\.[\w-]*$/;
const BASE64URL = /^(?=.*\d)(?=.*[A-Z])(?=.*[a-z])[\w~%+=-]{20,}$/;
const HEX = /^(?=.*\d)[\dA-Fa-f-]{20,}$/;
const secretLooking = (segment: string) => JWT.test(segment) || BASE64URL.test(segment) || HEX.test(segment);

/** The path of a request URL as it may be logged (see above). */
export function loggedPath(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  return path
    .replace(SECRET_AFTER, `$1/${REDACTED}`)
    .split('/')
    .map((segment) => (secretLooking(segment) ? REDACTED : segment))
    .join('/');
}

/** The request serializer of the server's logger: the method and the logged path, nothing else. */
export function serializeRequest(req: { method: string; url: string }): { method: string; path: string } {
  return { method: req.method, path: loggedPath(req.url) };
}
