-- Locks taken by the periodic work (jq_tick) without ever queueing for them.

-- Takes a lock on p_rel in p_mode for the rest of the transaction without
-- ever queueing for it: NOWAIT tries a few milliseconds apart until
-- p_patience has passed, then false. A queued request would make every
-- later statement on the table wait behind it, however briefly the holders
-- keep theirs.
create or replace function jq._try_lock(p_rel regclass, p_mode text, p_patience interval)
returns boolean
language plpgsql
as $$
declare
    v_deadline timestamptz := clock_timestamp() + p_patience;
begin
    loop
        begin
            execute format('lock table %s in %s mode nowait', p_rel, p_mode);
            return true;
        exception when lock_not_available then
            if clock_timestamp() >= v_deadline then
                return false;
            end if;
        end;
        perform pg_sleep(0.002);
    end loop;
end
$$;
