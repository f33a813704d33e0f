/** The identity tables' rows as the services see them. */
export type UserStatus = 'PROVISIONED' | 'ACTIVE' | 'SUSPENDED' | 'DEPROVISIONED';
/** Emailed link tokens: activation (24 hours), recovery (password reset) and unlock (60 minutes each). */
export type LinkTokenKind = 'activation' | 'recovery' | 'unlock';
export type TransactionKind = 'signin' | 'activation' | 'recovery' | 'stepup';
export type TransactionStatus =
  | 'PASSWORD_RESET'
  | 'MFA_REQUIRED'
  | 'MFA_CHALLENGE'
  | 'MFA_ENROLL'
  | 'MFA_ENROLL_ACTIVATE'
  | 'SUCCESS'
  | 'CANCELLED'
  | 'LOCKED_OUT';

export interface UserRow {
  id: string;
  customerId: string;
  login: string;
  status: UserStatus;
  firstName: string;
  lastName: string;
  passwordHash: string | null;
  passwordChangedAt: Date | null;
  failedAttempts: number;
  lockedUntil: Date | null;
}

export interface FactorRow {
  id: string;
  userId: string;
  factorType: 'sms' | 'call';
  phoneNumber: string;
  isMobile: boolean;
  /** When a code sent to it last finished a transaction. */
  lastUsedAt: Date | null;
}

export interface TransactionRow {
  id: string;
  userId: string;
  kind: TransactionKind;
  status: TransactionStatus;
  factorId: string | null;
  /** MFA_ENROLL_ACTIVATE: the authenticator app this transaction is setting up. */
  enrolFactorId: string | null;
  pendingPasswordHash: string | null;
  sendCount: number;
  createdAt: Date;
  expiresAt: Date;
}

export interface CodeRow {
  id: number;
  transactionId: string;
  factorId: string;
  codeHash: string;
  salt: string;
  codeLength: 5 | 6;
  maxAttempts: number;
  attempts: number;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  deadAt: Date | null;
}
