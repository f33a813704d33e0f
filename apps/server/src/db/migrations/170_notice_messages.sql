-- Customer messages (issue 40 point 6) are notified as documents are: a new message is a pending notice
-- of category `message` (its kind is the message's category: renewal, payment, claim or general), sent in
-- the same email as documents arriving in the same window.
ALTER TABLE document_notice DROP CONSTRAINT document_notice_category_check;
ALTER TABLE document_notice ADD CONSTRAINT document_notice_category_check
  CHECK (category IN ('bill', 'policy', 'quote', 'message'));
