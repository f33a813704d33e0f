-- How a customer is told of new documents and messages (issue 40 point 4). By email: always while
-- paperless, and by choice (notice_email) while on paper; by text message to the mobile on record, by
-- choice (notice_text, off by default). Both columns add without rewriting the table (constant defaults).
ALTER TABLE customer_preferences ADD COLUMN notice_email boolean NOT NULL DEFAULT false;
ALTER TABLE customer_preferences ADD COLUMN notice_text boolean NOT NULL DEFAULT false;

-- A pending notice per channel: the email goes as the window closes; a text waits out the quiet hours
-- (DOCUMENT_NOTICE_QUIET_HOURS). Rows before this were all email notices.
ALTER TABLE document_notice ADD COLUMN channel text NOT NULL DEFAULT 'email'
  CHECK (channel IN ('email', 'sms'));
