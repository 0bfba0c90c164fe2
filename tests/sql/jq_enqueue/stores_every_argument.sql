-- jq_enqueue stores queue, priority, max_attempts, key and tenant as given,
-- and takes the default max_attempts from jq.settings, not a constant.
begin;
select plan(9);

select jq_test.set_now('2030-01-01 12:00Z') \gset

select job_id as job from jq.jq_enqueue('invoice.render', '{"invoice": 7}', 'billing', -5,
                                        null, 3, 'inv-7', 'acme') \gset

select is((select queue from jq.jobs where id = :'job'), 'billing', 'queue stored');
select is((select priority from jq.jobs where id = :'job'), (-5)::smallint, 'negative priority stored');
select is((select max_attempts from jq.jobs where id = :'job'), 3::smallint, 'explicit max_attempts stored');
select is((select idempotency_key from jq.jobs where id = :'job'), 'inv-7', 'idempotency key stored');
select is((select tenant from jq.jobs where id = :'job'), 'acme', 'tenant stored');
select is((select job_id from jq.idempotency_keys where queue = 'billing' and idempotency_key = 'inv-7'),
          :'job'::uuid, 'the key is recorded against the job');

select job_id as nullpayload from jq.jq_enqueue('t', null) \gset
select is((select payload from jq.jobs where id = :'nullpayload'), '{}'::jsonb, 'a null payload is stored as an empty object');

update jq.settings set default_max_attempts = 7;
select job_id as fromsettings from jq.jq_enqueue('t') \gset
select is((select max_attempts from jq.jobs where id = :'fromsettings'), 7::smallint, 'the default max_attempts follows jq.settings');
select job_id as explicit from jq.jq_enqueue('t', '{}', 'default', 0, null, 2) \gset
select is((select max_attempts from jq.jobs where id = :'explicit'), 2::smallint, 'an explicit max_attempts wins over jq.settings');

select * from finish();
rollback;
