-- jq_worker_beat moves last_seen; a worker silent for gone_after is declared
-- gone by the next claim of another worker, and its next beat says was_gone
-- (it is alive again from then); an unregistered name is unknown.
begin;
select plan(6);

select jq_test.set_now('2030-03-01 09:00Z') \gset
select count(*) from jq.jq_worker_register('beat-w1', '{"beat_q": 2}') \gset
select jq_test.advance('10 seconds') \gset
select is(jq.jq_worker_beat('beat-w1'), 'ok', 'a registered worker''s beat is ok');
select is((select last_seen from jq.workers where name = 'beat-w1'), '2030-03-01 09:00:10Z'::timestamptz,
          'and moves last_seen');

-- 14 s of silence: not gone yet; 16 s: gone at the next claim.
select jq_test.advance('14 seconds') \gset
select count(*) from jq.jq_claim('beat_q', 'beat-w2', 1) \gset
select is((select gone_at from jq.workers where name = 'beat-w1'), null, 'silent 14 s: not declared gone');
select jq_test.advance('2 seconds') \gset
select count(*) from jq.jq_claim('beat_q', 'beat-w2', 1) \gset
select isnt((select gone_at from jq.workers where name = 'beat-w1'), null, 'silent 16 s: declared gone by a claim');
select is(jq.jq_worker_beat('beat-w1'), 'was_gone', 'its next beat says it was declared gone');
select is(jq.jq_worker_beat('nobody'), 'unknown', 'an unregistered worker is unknown');

select * from finish();
rollback;
