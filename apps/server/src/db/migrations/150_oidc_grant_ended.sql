-- A sign-in grant deleted (signing out, a session ended from "Where you're signed in", a password change,
-- closing the account, a customer erased; or purged a day after it expired) is announced on the channel
-- `oidc_grant_ended`, its ids comma-separated, so every instance refuses its access tokens at once rather
-- than when its half-second check of the grant runs out (docs/decisions/005, amended by issue 38). PostgreSQL
-- delivers a notification only when the transaction that deleted the rows commits, and never one of a
-- transaction rolled back. A payload holds at most 8000 bytes: ids go out 100 at a time.
CREATE FUNCTION oidc_grant_ended() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text;
BEGIN
  FOR ids IN
    SELECT string_agg(id, ',')
      FROM (SELECT id, (row_number() OVER ()) / 100 AS batch FROM gone WHERE model = 'Grant') AS grants
     GROUP BY batch
  LOOP
    PERFORM pg_notify('oidc_grant_ended', ids);
  END LOOP;
  RETURN NULL;
END
$$;

CREATE TRIGGER oidc_grant_ended
  AFTER DELETE ON oidc_payload
  REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION oidc_grant_ended();
