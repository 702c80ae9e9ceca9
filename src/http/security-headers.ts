// The content-security-policy every answer carries. Written for the dashboard (a single-page app
// served from this origin): scripts only from files of this origin, never inline; styles from this
// origin (inline style attributes allowed: components set them); images also as data:/blob: URLs and
// from https tile servers a user may configure for the map; requests only to this origin; never
// framed (clickjacking); no <base> and no form posting elsewhere. JSON answers carry it harmlessly;
// the swagger-ui playgrounds load only files of this origin and work under it unchanged (checked in
// a browser: no violation on load, Authorize or Try it out).
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ')
