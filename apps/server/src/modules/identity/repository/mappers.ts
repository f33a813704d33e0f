import type { UserRow, FactorRow, TransactionRow, CodeRow } from './rows';

/** Driver rows -> typed rows; each mapper names every column. */
export const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
export const dateOrNull = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));

/* eslint-disable @typescript-eslint/no-explicit-any -- row objects come from the driver untyped; each mapper names every column */
export const toUser = (r: any): UserRow => ({
  id: r.id,
  customerId: r.customer_id,
  login: r.login,
  status: r.status,
  firstName: r.first_name,
  lastName: r.last_name,
  passwordHash: r.password_hash,
  passwordChangedAt: dateOrNull(r.password_changed_at),
  failedAttempts: Number(r.failed_attempts),
  lockedUntil: dateOrNull(r.locked_until),
});
export const toFactor = (r: any): FactorRow => ({
  id: r.id,
  userId: r.user_id,
  factorType: r.factor_type,
  phoneNumber: r.phone_number,
  isMobile: r.is_mobile,
  lastUsedAt: dateOrNull(r.last_used_at),
});
export const toTransaction = (r: any): TransactionRow => ({
  id: r.id,
  userId: r.user_id,
  kind: r.kind,
  status: r.status,
  factorId: r.factor_id,
  enrolFactorId: r.enrol_factor_id ?? null,
  pendingPasswordHash: r.pending_password_hash,
  sendCount: Number(r.send_count),
  createdAt: date(r.created_at),
  expiresAt: date(r.expires_at),
});
export const toCode = (r: any): CodeRow => ({
  id: Number(r.id),
  transactionId: r.transaction_id,
  factorId: r.factor_id,
  codeHash: r.code_hash,
  salt: r.salt,
  codeLength: Number(r.code_length) as 5 | 6,
  maxAttempts: Number(r.max_attempts),
  attempts: Number(r.attempts),
  createdAt: date(r.created_at),
  expiresAt: date(r.expires_at),
  usedAt: dateOrNull(r.used_at),
  deadAt: dateOrNull(r.dead_at),
});
/* eslint-enable @typescript-eslint/no-explicit-any */
