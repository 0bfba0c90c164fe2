-- A payload over jq.settings.max_payload_bytes (54000) or nested deeper than
-- max_payload_depth (54001) is refused and nothing is written; at the limits
-- it is accepted. An admin can move both limits.
begin;
select plan(9);

create function pg_temp.nested(p_levels integer) returns jsonb language sql as $$
    select (repeat('{"a":', p_levels - 1) || '{}' || repeat('}', p_levels - 1))::jsonb
$$;

select is((select max_payload_bytes from jq.settings), 1048576, 'default payload limit: 1 MiB');
select is((select max_payload_depth from jq.settings), 64, 'default depth limit: 64 levels');

select throws_ok($$select jq.jq_enqueue('big', jsonb_build_object('blob', repeat('x', 2 * 1024 * 1024)), 'bounds')$$,
                 '54000', null, 'a 2 MiB payload is refused with 54000');
select throws_ok($$select jq.jq_enqueue('deep', pg_temp.nested(65), 'bounds')$$,
                 '54001', null, 'a payload nested 65 levels deep is refused with 54001');
select throws_ok($$select jq.jq_enqueue('deep', jsonb_build_object('a', (repeat('[', 10000) || repeat(']', 10000))::jsonb), 'bounds')$$,
                 '54001', null, 'JSON nested 10,000 deep is refused');
select is((select count(*) from jq.jobs where queue = 'bounds'), 0::bigint, 'nothing was written');

select lives_ok($$select jq.jq_enqueue('deep', pg_temp.nested(64), 'bounds')$$, '64 levels are accepted');
select lives_ok($$select jq.jq_enqueue('big', jsonb_build_object('blob', repeat('x', 1000 * 1000)), 'bounds')$$,
                'a 1 MB payload is accepted');

update jq.settings set max_payload_bytes = 2048, max_payload_depth = 3;
select throws_ok($$select jq.jq_enqueue('small', jsonb_build_object('blob', repeat('x', 3000)), 'bounds')$$,
                 '54000', 'payload is 3020 bytes; the limit is 2048 bytes', 'the limits follow jq.settings');

select * from finish();
rollback;
