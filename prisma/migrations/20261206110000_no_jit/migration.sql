-- The portal's statements are short: compiling one with JIT costs more than running it. On a large
-- database the planner's estimate of a statement can still pass jit_above_cost (the review queue's
-- figure on the 1M-transaction benchmark: 287 ms of JIT for a statement that runs in 30 ms), so the
-- role the portal connects as has JIT off in its database, for the sessions that start from now on.
-- A role may set its own defaults: no other privilege is needed.
DO $$
BEGIN
  EXECUTE format('ALTER ROLE CURRENT_USER IN DATABASE %I SET jit = off', current_database());
END
$$;
