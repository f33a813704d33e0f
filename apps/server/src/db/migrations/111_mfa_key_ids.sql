-- Which MFA_ENCRYPTION_KEY keyed a backup code's HMAC (its key id, never the key): after a key rotation,
-- `npm run mfa:rekey` counts the sets still made under a previous key. NULL: made before key ids existed.
ALTER TABLE identity_backup_code ADD COLUMN key_id text;
