-- Okta's enrolment in the authn API (docs/decisions/023, "Enrolment in the authn API"): a customer with no
-- factor they can use is answered MFA_ENROLL after the password, sets up an authenticator app
-- (MFA_ENROLL_ACTIVATE) and confirms it with a first code. Two more transaction statuses, and the app
-- being set up, bound to the transaction that set it up (another transaction cannot confirm it).
ALTER TABLE identity_transaction DROP CONSTRAINT identity_transaction_status_check;
ALTER TABLE identity_transaction
  ADD CONSTRAINT identity_transaction_status_check CHECK (
    status IN (
      'PASSWORD_RESET',
      'MFA_REQUIRED',
      'MFA_CHALLENGE',
      'MFA_ENROLL',
      'MFA_ENROLL_ACTIVATE',
      'SUCCESS',
      'CANCELLED',
      'LOCKED_OUT'
    )
  );
-- The pending authenticator app of MFA_ENROLL_ACTIVATE; emptied if it is removed meanwhile.
ALTER TABLE identity_transaction
  ADD COLUMN enrol_factor_id text REFERENCES identity_authenticator (id) ON DELETE SET NULL;
