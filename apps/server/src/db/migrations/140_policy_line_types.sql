-- The policies list shows each policy's lines of business by type only (the renewals grid), but read them
-- out of lines_of_business at every request: PostgreSQL had to take the whole JSON apart (a home policy's
-- lines carry every valuable and cover: most of the row) for a word or two per line. The types are now a
-- column of their own, generated from the lines (always in step with them, whoever writes the policy), so
-- the list reads a few bytes (docs/decisions/030, amended).
ALTER TABLE policy
  ADD COLUMN line_of_business_types jsonb
  GENERATED ALWAYS AS (jsonb_path_query_array(lines_of_business, '$[*].type')) STORED;
