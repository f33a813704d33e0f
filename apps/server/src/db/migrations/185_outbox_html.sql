-- Emails have an HTML part beside the plain text (issue 40 point 8), both rendered from one template
-- (platform/notifier/email-template.ts). The outbox keeps it for the dev outbox page and API; the queue
-- carries it to the SMTP adapter and clears it once sent, as it does the text. Null for texts and calls
-- (and for rows written before this).
ALTER TABLE outbox_message ADD COLUMN html text;
ALTER TABLE message_queue ADD COLUMN html text;
