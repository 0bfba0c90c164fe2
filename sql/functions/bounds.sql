-- Bounds on what callers may store, read from jq.settings (an admin may change
-- them): a payload's size and nesting depth (refused over the limit, nothing
-- written), and the length of error text (cut and marked, never refused, so a
-- failure is always recorded).
--
--   max_payload_bytes  54000 program_limit_exceeded  "payload is N bytes; the limit is M"
--   max_payload_depth  54001 statement_too_complex   "payload nests deeper than M levels"
--   max_error_length   text cut to M characters, ending "... [cut: N characters in all]"

-- True when p_payload holds an object or array at nesting level p_depth or
-- deeper (the top-level value is level 0), i.e. more than p_depth levels.
-- A jsonb container takes at least 4 bytes per level, so a small payload
-- cannot be too deep and skips the walk.
create or replace function jq._payload_too_deep(p_payload jsonb, p_depth integer)
returns boolean
language sql
immutable
parallel safe
as $$
    select pg_column_size(p_payload) >= 4 * p_depth
       and jsonb_path_exists(p_payload,
               format('strict $.**{%s to last} ? (@.type() == "object" || @.type() == "array")', p_depth)::jsonpath)
$$;

-- Refuses a payload over the size or depth limit. p_what names it in the
-- message: 'payload', 'jobs[3].payload'.
create or replace function jq._check_payload(p_payload jsonb, p_what text default 'payload')
returns void
language plpgsql
stable
as $$
declare
    v_bytes integer := pg_column_size(p_payload);
    v_limits record;
begin
    if p_payload is null then
        return;
    end if;
    select s.max_payload_bytes, s.max_payload_depth into v_limits from jq.settings s;
    if v_bytes > v_limits.max_payload_bytes then
        raise exception '% is % bytes; the limit is % bytes', p_what, v_bytes, v_limits.max_payload_bytes
            using errcode = '54000',
                  hint = 'Store large data elsewhere and pass a reference; an admin may raise jq.settings.max_payload_bytes.';
    end if;
    -- The size guard first, here too: the SQL function is planned afresh in
    -- every transaction that calls it, which a small payload need not pay.
    if v_bytes >= 4 * v_limits.max_payload_depth and jq._payload_too_deep(p_payload, v_limits.max_payload_depth) then
        raise exception '% nests deeper than % levels', p_what, v_limits.max_payload_depth
            using errcode = '54001',
                  hint = 'Flatten the payload; an admin may raise jq.settings.max_payload_depth.';
    end if;
end
$$;

-- Refuses the first element of a jq_enqueue_many batch whose payload is over
-- a limit, naming it jobs[i].payload; one pass over the batch.
create or replace function jq._check_batch_payloads(p_jobs jsonb)
returns void
language plpgsql
stable
as $$
declare
    v_index integer;
begin
    select t.ord - 1 into v_index
      from jsonb_array_elements(p_jobs) with ordinality as t(e, ord), jq.settings s
     where pg_column_size(t.e -> 'payload') > s.max_payload_bytes
        or jq._payload_too_deep(t.e -> 'payload', s.max_payload_depth)
     order by t.ord
     limit 1;
    if v_index is not null then
        perform jq._check_payload(p_jobs -> v_index -> 'payload', format('jobs[%s].payload', v_index));
    end if;
end
$$;

-- Error text as jq keeps it: at most max_error_length characters; longer
-- text keeps its head (the message and the first frames) and says how long
-- it was.
create or replace function jq._bounded_error(p_error text)
returns text
language sql
stable
as $$
    select case when char_length(p_error) <= s.max_error_length then p_error
                else left(p_error, s.max_error_length - char_length(m.marker)) || m.marker end
      from jq.settings s,
           lateral (select format(E'\n... [cut: %s characters in all]', char_length(p_error)) as marker) m
$$;
